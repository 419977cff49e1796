import Chapter4SerialQueues
import Foundation
import Testing
import WorkbookTestSupport

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
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild {
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
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 4) {
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
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent],
            "the child ends with a code runInChild chose, or with a signal"
        ) {
            runInChild(seconds: 4) {
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
