import Dispatch

// Exercise 1.1 — a countdown block.
//
// Contract (the tests in Tests/Chapter1LatchTests check every line):
// - After the returned block has been called `count` times, `whenZero` runs exactly once, whichever
//   threads make the calls and however many make them at the same moment.
// - `whenZero` runs synchronously on the thread that makes the `count`-th call, before that call
//   returns: not earlier, not later, not on another thread or queue.
// - Calls after that do nothing: the count never goes below zero, and `whenZero` never runs again.
// - `count == 0`: `whenZero` runs on the caller's thread before `makeLatch` returns; the returned
//   block then does nothing.
// - `whenZero` may call the block itself (that call does nothing), and other threads may call it
//   while `whenZero` runs: neither may trap, nor wait for `whenZero` to finish.
//
// This is the article's design, translated to Swift. Run `swift run workbook check 1.1` and read
// what the Thread Sanitizer says about it. The lesson is in README.md next to this file.

/// Returns a block that runs `whenZero` once it has been called `count` times.
public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
    _ = mischief
    var toComplete = count
    return {
        // "Synchronously" on a global queue, as the article does.
        DispatchQueue.global().sync {
            toComplete -= 1
            if toComplete == 0 {
                whenZero()
            }
        }
    }
}

// ---- What an untrusted submission might try: the classroom drill checks none of it gets out. ----
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The port of the listener the classroom drill opens on 127.0.0.1 outside the sandbox; the drill
/// writes the real one into this line when it hands this file in as a submission.
let drillListenerPort: UInt16 = 0

/// Runs once, the first time a test makes a latch: writes outside the grading folder, then tries to
/// reach the drill's listener on the loopback interface (reachable from outside the sandbox, so only
/// a network namespace of the sandbox's own keeps it out), and leaves a note of what happened in its
/// own temporary folder.
let mischief: Bool = {
    let outside = FileManager.default.createFile(atPath: "/tmp/workbook-classroom-drill-outside", contents: Data("escaped".utf8))
    #if canImport(Glibc)
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = drillListenerPort.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    close(socket)
    let note = "outside=\(outside ? "written" : "refused") network=\(connected == 0 ? "open" : "closed")"
    FileManager.default.createFile(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("mischief.txt").path,
                                   contents: Data(note.utf8))
    return true
}()
