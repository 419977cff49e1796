import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine

// Serialized: the tests count and end children one at a time.
@Suite("Running children: exit codes, signals, watchdog, output cap", .serialized)
struct ChildProcessTests {
    @Test("each line of output is seen as it comes; SwiftPM's step counter is read from it")
    func lines() throws {
        let seen = Locked<[String]>([])
        _ = try ChildProcess.run("sh", ["-c", "echo '[3/120] Compiling A'; printf 'b\\nc'"], timeLimit: 10,
                                 onLine: { line in seen.withLock { $0.append(line) } })
        #expect(seen.value == ["[3/120] Compiling A", "b"], "a last line without its newline is not a line yet")
        #expect(Builder.buildStep("[3/120] Compiling A")! == (3, 120))
        #expect(Builder.buildStep("Build complete!") == nil)
        #expect(Builder.buildStep("[x/y]") == nil)
    }

    @Test("exit status and signals are told apart")
    func termination() throws {
        #expect(try ChildProcess.run("/bin/sh", ["-c", "exit 3"]).termination == .exited(3))
        #expect(try ChildProcess.run("/bin/sh", ["-c", "kill -ILL $$"]).termination == .signaled(4))
        #expect(try ChildProcess.run("/bin/sh", ["-c", "echo hi"]).output == "hi\n")
    }

    @Test("the watchdog kills the whole process group, grandchildren too (fault 4)")
    func watchdogKillsGroup() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("wb-grandchild-\(UUID().uuidString)")
        let result = try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo $! > \(marker.path); wait"], timeLimit: 1)
        guard case .timedOut = result.termination else {
            Issue.record("expected a timeout, got \(result.termination)")
            return
        }
        #expect(result.seconds < 10)
        let grandchild = try #require(Int32(String(contentsOf: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isGone(grandchild), "the grandchild outlived the kill")
        try? FileManager.default.removeItem(at: marker)
    }

    @Test("a child whose progress file stays quiet once it has begun is stopped")
    func quietChild() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wb-quiet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run("/bin/sh", ["-c", "echo started > '\(file.path)'; sleep 30"], timeLimit: 60, idleLimit: (file, 0.5))
        if case let .timedOut(_, quiet) = result.termination {
            #expect(quiet == 0.5)
        } else {
            Issue.record("expected the quiet child to be stopped, got \(result.termination)")
        }
        #expect(result.seconds < 10)
    }

    @Test("before the progress file's first bytes (a runner still starting up) only the whole time limit counts")
    func slowStart() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wb-slow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run("/bin/sh", ["-c", "sleep 1.5; echo started > '\(file.path)'; sleep 0.2"],
                                          timeLimit: 60, idleLimit: (file, 0.5))
        #expect(result.termination == .exited(0), "a quiet start-up is not a hang")
    }

    @Test("huge output is capped, head and tail kept, and never blocks the child (fault 5)")
    func hugeOutput() throws {
        let result = try ChildProcess.run("/bin/sh", ["-c", "echo FIRST; head -c 30000000 /dev/zero | tr '\\\\0' x; echo; echo LAST"], timeLimit: 60)
        #expect(result.termination == .exited(0))
        #expect(result.outputTruncated)
        #expect(result.output.utf8.count < ChildProcess.outputCap + 200)
        #expect(result.output.hasPrefix("FIRST"))
        #expect(result.output.hasSuffix("LAST\n"))
        #expect(result.output.contains("bytes of output dropped"))
    }

    @Test("Ctrl-C's path: killAll ends every running child group at once (fault 7)")
    func killAll() throws {
        let ended = DispatchSemaphore(value: 0)
        let box = Locked<ChildResult?>(nil)
        // A registry of this test's own: the shared one also holds the children of tests running
        // beside it (seen under `selftest`: one of theirs counted, this child not yet registered,
        // and killAll ended theirs instead).
        let children = RunningChildren()
        Thread {
            box.set(try? ChildProcess.run("/bin/sh", ["-c", "sleep 30"], timeLimit: 60, children: children))
            ended.signal()
        }.start()
        // Wait (bounded) until the child is registered, then do what Ctrl-C does.
        let deadline = Date().addingTimeInterval(5)
        while children.count == 0 && Date() < deadline { usleep(10_000) }
        children.killAll()
        #expect(ended.wait(timeout: .now() + 10) == .success, "the child was not ended")
        #expect(box.value?.termination == .signaled(SIGKILL))
    }
}

/// `true` once a process has ended (a zombie nobody reaps counts as ended). Waits up to 5 s.
private func isGone(_ pid: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    repeat {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return kill(pid, 0) == -1
        }
        if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
        usleep(20_000)
    } while Date() < deadline
    return false
}
