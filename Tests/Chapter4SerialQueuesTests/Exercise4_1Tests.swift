import Chapter4SerialQueues
import Foundation
import Testing
import WorkbookTestSupport

// Every call into TokenStore runs in a child process (see Children.swift): a getter or setter that
// reads `token` inside its own `queue.sync` block traps.

@Suite("4.1 TokenStore.token — a serial queue as a lock", .gradedUnderTSan)
struct Exercise4_1Tests {
    /// Said when the store's queue cannot be found.
    static let noQueue = "TokenStore has no stored `queue` any more; keep `let queue` and do every access to `cachedToken` on it (4.2's update relies on it)"

    /// For a child: a plain block of the test, `block`, holds `store`'s queue while `body` runs, until
    /// `body` fires `release` (``whileQueueHeld(of:by:barrier:ifNoQueue:_:)``); without a queue, `ifNoQueue`.
    static func withQueueHeld(
        of store: TokenStore, by block: String = "a block the test put on the store's queue", ifNoQueue: String = noQueue,
        _ body: (_ release: Signal) -> String?
    ) -> String? {
        whileQueueHeld(of: store, by: block, ifNoQueue: ifNoQueue, body)
    }

    static let syncInsideSync =
        syncOntoItsOwnQueue + "Inside the setter's or the getter's `queue.sync { … }`: which name there runs the getter or the setter, and so asks for the queue again?"

    @Test("a token set is read back, on this thread and another; nil clears it")
    func readsBackWhatWasSet() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let store = Unchecked(TokenStore())
                if let first = store.value.token { return "a new store must hold no token, but token read \"\(first)\"" }
                store.value.token = "abc"
                if store.value.token != "abc" {
                    return "after token = \"abc\", token read \(String(describing: store.value.token))"
                }
                // Set on another thread; read here once that set has returned.
                guard finishes({ store.value.token = "from another thread" }) else { return "setting token on another thread did not return within 2 s" }
                let seenHere = store.value.token
                if seenHere != "from another thread" {
                    return "another thread set token = \"from another thread\" and returned; this thread then read \(String(describing: seenHere))"
                }
                // Set here; read on another thread.
                store.value.token = "xyz"
                let seenThere = Tally<String?>()
                guard finishes({ seenThere.append(store.value.token) }) else { return "reading token on another thread did not return within 2 s" }
                if seenThere.all != ["xyz"] {
                    return "after token = \"xyz\" returned, another thread read \(seenThere.all.first.map { String(describing: $0) } ?? "nothing")"
                }
                store.value.token = nil
                if let left = store.value.token { return "after token = nil, token still read \"\(left)\"" }
                return nil
            }
        }
        judgeChild(result, "Setting and reading the token", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two threads replace and clear the token while two others read it")
    func readersAndWritersAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let store = Unchecked(TokenStore())
                // Writers set "t<thread>-<iteration>", and clear the token (nil) every other time:
                // clearing is a write like any other.
                return writersAndReaders(initial: nil, write: { thread, iteration in
                    store.value.token = iteration % 2 == 0 ? nil : "t\(thread)-\(iteration)"
                }, read: { store.value.token })
            }
        }
        judgeChild(result, "Two threads writing the token while two read it", ifItCrashed: Self.syncInsideSync)
    }

    @Test("a writer and a reader taking turns; some writes clear the token")
    func readerTakingTurnsWithWriter() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let store = Unchecked(TokenStore())
                // Turn 2i: the writer sets token i — or clears it, every 4th time; turn 2i+1: the
                // reader reads it back. Only the store's queue can order a read after the write before
                // it; nothing else here does. So any access made off the queue is reported, every run.
                return writerAndReaderTakingTurns(
                    value: { $0 % 4 == 3 ? nil : "t\($0)" },
                    write: { store.value.token = $0 },
                    read: { store.value.token })
            }
        }
        judgeChild(result, "A writer and a reader taking turns", ifItCrashed: Self.syncInsideSync)
    }

    @Test("a read waits while another block runs on the store's queue")
    func readsGoThroughTheQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let store = Unchecked(TokenStore())
                return Exercise4_1Tests.withQueueHeld(of: store.value) { release in
                    let returned = startThreadSignalling { _ = store.value.token }
                    // While the test's block holds the queue, a getter that reads on `queue` must wait.
                    let tooEarly = returned.happens(within: 0.2)
                    release.fire()
                    if tooEarly {
                        return "reading token returned while another block was running on the store's `queue`, so the getter reads `cachedToken` without going through `queue`. Every access must be a block on `queue` — the lock 4.2's update shares; another lock of your own does not exclude that."
                    }
                    guard returned.happens(within: 2) else {
                        return "reading token did not return within 2 s after the store's queue became free"
                    }
                    return nil
                }
            }
        }
        judgeChild(result, "Reading the token while the store's queue is busy", ifItCrashed: Self.syncInsideSync)
    }

    // A setter that guards `cachedToken` with a lock of its own, while the getter reads it with
    // `queue.sync { cachedToken }`, gives the Thread Sanitizer nothing to report: the sets are
    // ordered by the lock, and the value a `sync` block returns is copied (`__tsan_memcpy`, inside
    // an interceptor) where TSan does not look (issue 15, dimension 9). The contract's queue clause
    // still sees it: such a set takes effect while another block holds the queue.

    @Test("a set, and a clear, made while another block runs on the store's queue take effect only after that block")
    func setsGoThroughTheQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                for newValue in ["after", nil] as [String?] {
                    let store = Unchecked(TokenStore())
                    store.value.token = "before"
                    let seen = Tally<String?>()
                    let problem = Exercise4_1Tests.withQueueHeld(of: store.value) { release in
                        // A read made first waits behind the test's block — ahead of the set made next.
                        let read = startThreadSignalling { seen.append(store.value.token) }
                        usleep(400_000)
                        let setReturned = startThreadSignalling { store.value.token = newValue }
                        // A set that waits for the queue (`sync`) is still waiting here; one that went
                        // to the queue with `async` has returned, but its block runs after the read.
                        let returnedWhileHeld = setReturned.happens(within: 0.2)
                        release.fire()
                        guard read.happens(within: 2) else { return childTimedOut("reading token did not return within 2 s after the store's queue became free") }
                        guard returnedWhileHeld || setReturned.happens(within: 2) else {
                            return childTimedOut("setting token did not return within 2 s after the store's queue became free")
                        }
                        if returnedWhileHeld, seen.all != ["before"] {
                            return "token = \(quoted(newValue)), made while another block was running on the store's `queue`, changed `cachedToken` at once: a read waiting in line on `queue` since before that set read \(seen.all.first.map(quoted) ?? "nothing"), not \"before\". The setter changes `cachedToken` without going through `queue` — every write must be a block on `queue` (4.2's update shares it); a lock of your own orders the sets among themselves, but not against the reads on `queue`."
                        }
                        return nil
                    }
                    if let problem { return problem }
                }
                return nil
            }
        }
        judgeChild(result, "Setting the token while the store's queue is busy", ifItCrashed: Self.syncInsideSync)
    }
}

// The dimensions of issue 15: every pair of operations at once, two stores at once, and a store
// released while work waits on its queue.
// Every clause about values, in generated scenarios (callers everywhere, the main queue too,
// values at their edges; each read held to the run's history): explored (Exercise4_1Tests+Explored.swift).
extension Exercise4_1Tests {
    /// The store's operations, as the pair test names them: reading, setting and clearing the token.
    static let operations = ["get", "set", "clear"]

    @Test("every pair of get, set and clear at the same moment: reads see only stored tokens, and a last write wins")
    func everyPairAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                runEveryPairAtOnce(Exercise4_1Tests.operations) { pair in
                    let store = Unchecked(TokenStore())
                    store.value.token = "start"
                    let call: @Sendable (String, Int, Int) -> String? = { operation, thread, iteration in
                        switch operation {
                        case "get":
                            if let seen = store.value.token, seen != "start", !seen.hasPrefix("s") {
                                return "a read returned \"\(seen)\", which nobody stored"
                            }
                        case "set": store.value.token = "s\(thread)-\(iteration)"
                        default: store.value.token = nil
                        }
                        return nil
                    }
                    let check: () -> String? = {
                        // The values the pair's writers stored last; "start" if nobody wrote.
                        var last: Set<String?> = []
                        for operation in [pair.first, pair.second] {
                            if operation == "set" { last.formUnion((0..<4).map { "s\($0)-149" }) }
                            if operation == "clear" { last.insert(nil) }
                        }
                        if last.isEmpty { last = ["start"] }
                        let final = store.value.token
                        if last.contains(final) { return nil }
                        return "after every thread had returned, token read \(quoted(final)); it must be what one of the last writes left (\(last.map(quoted).sorted().joined(separator: " or ")))"
                    }
                    return (call, check)
                }
            }
        }
        judgeChild(result, "Every pair of get, set and clear at the same moment", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two stores at once hold two tokens: a token set on one is never read from the other")
    func twoStoresAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let one = Unchecked(TokenStore()), two = Unchecked(TokenStore())
                one.value.token = "one"
                if let seen = two.value.token {
                    return "token was set to \"one\" on one store, and a second store then read \"\(seen)\". Each store keeps its own token: `cachedToken` is a stored property of the instance — no `static` storage, no global"
                }
                two.value.token = "two"
                if let seen = one.value.token, seen != "one" {
                    return "setting the token of a second store changed the first store's token to \"\(seen)\"; each store keeps its own"
                }
                // Both stores at once, from four threads: each store's readers see only its own tokens.
                let stores = [one, two]
                if let problem = twoReadAndSetAtOnce(
                    "store", other: "the other store", write: { stores[$0].value.token = $1 }, read: { stores[$0].value.token }
                ) { return problem }
                // One store's busy queue does not hold up the other.
                return Exercise4_1Tests.withQueueHeld(
                    of: one.value, by: "a block the test put on a store's queue",
                    ifNoQueue: "could not check that one store's busy queue leaves another store alone: " + Exercise4_1Tests.noQueue
                ) { _ in
                    guard finishes(within: 1, { two.value.token = "free"; _ = two.value.token }) else {
                        return "setting and reading one store's token waited while another store's queue was busy: every store needs a queue of its own (an instance property, not a `static` one shared by all stores)"
                    }
                    return nil
                }
            }
        }
        judgeChild(result, "Two stores at once", ifItCrashed: Self.syncInsideSync)
    }

    @Test("a store let go while a set waits on its queue: the set finishes, and nothing traps")
    func releasedWhileASetWaits() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                releasedWhileWorkWaits({ TokenStore() }, "token = \"late\"") { store in store.token = "late" }
            }
        }
        judgeChild(
            result, "Letting a store go while a set waits on its queue",
            ifItCrashed: "If the setter queues its write with `async`: that block may run after the store's last reference is gone, and reading an `unowned` reference to a store that is gone traps. What does your block hold? Otherwise: "
                + Self.syncInsideSync)
    }
}
