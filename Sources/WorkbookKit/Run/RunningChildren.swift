import Foundation

/// The process groups this process has started and not yet reaped; Ctrl-C kills them all.
public final class RunningChildren: Sendable {
    public static let shared = RunningChildren()
    private let groups = Locked<Set<pid_t>>([])
    /// The signal sources, kept alive for the life of the process; never touched again.
    private let sources = Locked<[KeptAlive]>([])

    private struct KeptAlive: @unchecked Sendable { let source: DispatchSourceSignal }

    func add(_ pid: pid_t) { groups.withLock { _ = $0.insert(pid) } }
    func remove(_ pid: pid_t) { groups.withLock { _ = $0.remove(pid) } }

    /// How many child process groups are running.
    var count: Int { groups.withLock { $0.count } }

    /// Kills every running child's process group.
    func killAll() {
        for pid in groups.withLock({ $0 }) { kill(-pid, SIGKILL) }
    }

    /// On Ctrl-C (SIGINT) or SIGTERM: kill every child group, run `cleanup`, and exit with 130.
    public func endChildrenOnInterrupt(cleanup: @escaping @Sendable () -> Void = {}) {
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
