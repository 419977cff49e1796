import Chapter4SerialQueues
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// Every call into AuthToken runs in a child process (see Children.swift): the recipe's setter reads
// `token` inside its own `queue.sync` block, and that traps.
//
// Only this file may name `AuthToken`: when AuthToken.swift does not compile, the grader leaves it
// and this file out of the build (WORKBOOK_EXCLUDE) and grades the chapter's other exercises.

@Suite("4.5 AuthToken.token — the recipe's getter and setter, compiling and right", .gradedUnderTSan)
struct Exercise4_5Tests {
    static let readsItself =
        "A trap here most likely means that code already running on the queue called the getter, which checks that it is not on the queue and then `sync`s onto it (on Apple platforms the crash report says why; on Linux the process just traps, SIGILL on x86-64). The recipe's setter does exactly that: inside its `queue.sync { … }`, `token` is the property itself, and reading it runs the getter. The value being set is `newValue`. An `async` setter traps the same way, on a worker thread."

    @Test("the first token and every set are read back, on this thread and another")
    func readsBackWhatWasSet() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let holder = Unchecked(AuthToken(token: "first"))
                let first = holder.value.token
                if first != "first" { return "AuthToken(token: \"first\").token read \"\(first)\"" }
                holder.value.token = "second"
                let second = holder.value.token
                if second != "second" {
                    return "after token = \"second\", token read \"\(second)\": a set must store the value being set (`newValue`), not the token it replaces"
                }
                // Set on another thread; read here once that set has returned.
                let setThere = Signal()
                startThread {
                    holder.value.token = "from another thread"
                    setThere.fire()
                }
                guard setThere.happens(within: 2) else { return childTimedOut("setting token on another thread did not return within 2 s") }
                let seenHere = holder.value.token
                if seenHere != "from another thread" {
                    return "another thread set token = \"from another thread\" and returned; this thread then read \"\(seenHere)\""
                }
                // Set here; read on another thread.
                holder.value.token = "xyz"
                let seenThere = Tally<String>(), readThere = Signal()
                startThread {
                    seenThere.append(holder.value.token)
                    readThere.fire()
                }
                guard readThere.happens(within: 2) else { return childTimedOut("reading token on another thread did not return within 2 s") }
                if seenThere.all != ["xyz"] {
                    return "after token = \"xyz\" returned, another thread read \(seenThere.all.first.map { "\"\($0)\"" } ?? "nothing")"
                }
                return nil
            }
        }
        judgeChild(result, "Setting and reading the token", ifItCrashed: Self.readsItself)
    }

    @Test("two threads replace the token while two others read it")
    func readersAndWritersAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let holder = Unchecked(AuthToken(token: "first"))
                // Writers set "t<thread>-<iteration>"; readers check that every token they see is
                // one somebody stored.
                return writersAndReaders(initial: "first", write: { thread, iteration in
                    holder.value.token = "t\(thread)-\(iteration)"
                }, read: { holder.value.token })
            }
        }
        judgeChild(result, "Two threads setting the token while two read it", ifItCrashed: Self.readsItself)
    }

    @Test("a writer and a reader taking turns")
    func readerTakingTurnsWithWriter() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let holder = Unchecked(AuthToken(token: "first"))
                // Turn 2i: the writer sets token i; turn 2i+1: the reader reads it back. Only the
                // holder's own synchronization can order a read after the write before it, so an
                // access to `cachedToken` made without it is reported, every run.
                return writerAndReaderTakingTurns(
                    value: { "t\($0)" },
                    write: { holder.value.token = $0 ?? "" },
                    read: { holder.value.token })
            }
        }
        judgeChild(result, "A writer and a reader taking turns", ifItCrashed: Self.readsItself)
    }
}

// The dimensions of issue 15: every pair of get and set at once, two tokens at once, and a token
// released while a set waits on its queue.
// Every clause about values, in generated scenarios (callers everywhere, the main queue too,
// values at their edges; each read held to the run's history): explored (Exercise4_5Tests.swift, at the end).
extension Exercise4_5Tests {
    /// The token's operations, as the pair test names them.
    static let operations = ["get", "set"]

    /// A 15-byte token (Swift keeps it inline) whose two halves both say who stored it: a read that
    /// mixes two sets — the first eight bytes of one and the rest of another — does not match itself.
    static func token(_ thread: Int, _ iteration: Int) -> String {
        let number = String(iteration + 1_000_000 * (thread + 1)).suffix(7)
        return "\(number)-\(number)"
    }

    /// Whether `token` is one ``token(_:_:)`` made, not a mix of two.
    static func isWhole(_ token: String) -> Bool {
        let halves = token.split(separator: "-")
        return halves.count == 2 && halves[0] == halves[1]
    }

    @Test("every pair of get and set at the same moment: reads see only whole tokens that were set, and a last set wins")
    func everyPairAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                runEveryPairAtOnce(Exercise4_5Tests.operations) { pair in
                    let holder = Unchecked(AuthToken(token: "first"))
                    let call: @Sendable (String, Int, Int) -> String? = { operation, thread, iteration in
                        if operation == "set" {
                            holder.value.token = Exercise4_5Tests.token(thread, iteration)
                        } else {
                            let seen = holder.value.token
                            if seen != "first", !Exercise4_5Tests.isWhole(seen) {
                                return "a read returned \"\(seen)\", which nobody set — a mix of two tokens being set at that moment"
                            }
                        }
                        return nil
                    }
                    let check: () -> String? = {
                        let last: Set<String> = pair.first == "set" || pair.second == "set"
                            ? Set((0..<4).map { Exercise4_5Tests.token($0, 149) }) : ["first"]
                        let final = holder.value.token
                        // Only the threads that set count: the others' names are in `last` but never stored.
                        if last.contains(final) { return nil }
                        return "after every thread had returned, token read \"\(final)\"; it must be the last value one of the setting threads stored"
                    }
                    return (call, check)
                }
            }
        }
        judgeChild(result, "Every pair of get and set at the same moment", ifItCrashed: Self.readsItself)
    }

    @Test("two tokens at once: a token set on one is never read from the other")
    func twoTokensAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let one = Unchecked(AuthToken(token: "one")), two = Unchecked(AuthToken(token: "two"))
                let first = one.value.token
                if first != "one" {
                    return "AuthToken(token: \"one\") read \"\(first)\" after a second AuthToken(token: \"two\") was made. Each AuthToken keeps its own token: `cachedToken` is a stored property of the instance — no `static` storage, no global"
                }
                one.value.token = "one again"
                let second = two.value.token
                if second != "two" {
                    return "setting one AuthToken to \"one again\" made a second one read \"\(second)\"; each keeps its own token"
                }
                let tokens = [one, two]
                return twoReadAndSetAtOnce("AuthToken", other: "the other", write: { tokens[$0].value.token = $1 }, read: { tokens[$0].value.token })
            }
        }
        judgeChild(result, "Two AuthTokens at once", ifItCrashed: Self.readsItself)
    }

    @Test("an AuthToken let go while a set waits on its queue: the set finishes, and nothing traps")
    func releasedWhileASetWaits() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                releasedWhileWorkWaits({ AuthToken(token: "first") }, "token = \"late\"") { holder in holder.token = "late" }
            }
        }
        judgeChild(
            result, "Letting an AuthToken go while a set waits on its queue",
            ifItCrashed: "If the setter queues its write with `async`: that block may run after the AuthToken's last reference is gone, and reading an `unowned` reference to an AuthToken that is gone traps. What does your block hold? Otherwise: "
                + Self.readsItself)
    }
}

// 4.5's contract, executable, over the history of a run (Registers.swift): reads and sets of `token` from threads and every kind of queue,
// the main queue too, tokens empty, long and outside ASCII.

extension Exercise4_5Tests: ExploredVariant {
    static let variant = RegisterScenario.Variant(keys: 1, storesNil: false)
    static let exploring = "Exploring scenarios of the token's contract"
    static var ifItCrashed: String { readsItself }

    static func run(_ scenario: RegisterScenario) -> Violation? {
        runRegisters(scenario, initial: "first", what: "a read of `token`", make: { AuthToken(token: "first") },
                     read: { object, _ in object.token }, set: { object, _, value in object.token = value ?? "" })
    }

    @Test("explored: callers on threads and every kind of queue (main too), reads and sets mixed, tokens empty, long and outside ASCII: every read is a whole token that was set, never an older one")
    func explored() async {
        await Self.explore()
    }
}
