import Foundation
import WorkbookCore

/// The children this process has started and not yet reaped, each with how it is stopped; Ctrl-C
/// stops them all.
package final class RunningChildren: Sendable {
    package static let shared = RunningChildren()
    private let groups = Locked<[pid_t: Stopping]>([:])
    /// The signal sources, kept alive for the life of the process; never touched again.
    private let sources = Locked<[KeptAlive]>([])

    private struct KeptAlive: @unchecked Sendable { let source: DispatchSourceSignal }

    func add(_ pid: pid_t, stopping: Stopping = .group) { groups.withLock { $0[pid] = stopping } }
    func remove(_ pid: pid_t) { groups.withLock { _ = $0.removeValue(forKey: pid) } }

    /// How many child process groups are running.
    var count: Int { groups.withLock { $0.count } }

    /// Stops every running child as it is to be stopped, all at once.
    func killAll() {
        let running = groups.withLock { $0 }
        DispatchQueue.concurrentPerform(iterations: running.count) { index in
            let (pid, stopping) = running[running.index(running.startIndex, offsetBy: index)]
            stopping.stop(pid) { groups.withLock { $0[pid] == nil } }
        }
    }

    /// On Ctrl-C (SIGINT) or SIGTERM: kill every child group, run `cleanup`, and exit with 130.
    package func endChildrenOnInterrupt(cleanup: @escaping @Sendable () -> Void = {}) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                killAll()
                cleanup()
                FileHandle.standardError.write(Data("\nInterrupted: stopped every build and test this run had started.\n".utf8))
                exit(130)
            }
            source.resume()
            let kept = KeptAlive(source: source)
            sources.withLock { $0.append(kept) }
        }
    }
}
