import Foundation
import WorkbookCore

/// How a child the workbook started is stopped — by the watchdog, by Ctrl-C, and after it ends —
/// so that nothing it started outlives it.
///
/// Every child leads a process group of its own (``ChildProcess``). That is enough for a program
/// whose own children stay in its group. `swift test` is not one: SwiftPM starts the test runner
/// in a new process group (`AsyncProcess`, `startNewProcessGroup: true` by default, at
/// `swift-6.2-RELEASE` and `swift-6.3-RELEASE`), so killing `swift test`'s group leaves the runner
/// and its exit tests' children running.
package enum Stopping: Sendable, Equatable {
    /// SIGKILL to the child's process group.
    case group
    /// `swift test`: SIGINT to it first — SwiftPM's cancellator passes SIGINT on to the runner's
    /// group and stops (`Cancellator.swift`: SIGINT, then SIGTERM and SIGKILL after its timeout) —
    /// then, once it has ended or after `grace` seconds, SIGKILL to its group, then a sweep: every
    /// process whose command line mentions `marker` (the run's own folder, which the runner's
    /// arguments name, and on macOS its exit tests' children's too), and the process group each
    /// leads (the runner's, where an exit test's child on Linux stays).
    /// `platform` lists the processes the sweep looks through.
    case swiftPM(marker: String, grace: Double, platform: Platform)

    /// The plan for `swift test` over a run whose arguments name `marker`, on `platform`.
    static func swiftPM(marker: String, on platform: Platform) -> Stopping { .swiftPM(marker: marker, grace: 2, platform: platform) }

    /// Stops the child `pid` now; `hasEnded` says whether it has been reaped meanwhile.
    func stop(_ pid: pid_t, hasEnded: () -> Bool) {
        switch self {
        case .group:
            kill(-pid, SIGKILL)
        case let .swiftPM(marker, grace, platform):
            kill(pid, SIGINT)
            let deadline = Date().addingTimeInterval(grace)
            while !hasEnded() && Date() < deadline { usleep(20_000) }
            kill(-pid, SIGKILL)
            Self.sweep(marker, on: platform)
        }
    }

    /// After the child `pid` has ended: what it left behind is ended too.
    func leftovers(of pid: pid_t) {
        kill(-pid, SIGKILL)
        if case let .swiftPM(marker, _, platform) = self { Self.sweep(marker, on: platform) }
    }

    /// Ends every process that mentions `marker`, with the group it leads.
    private static func sweep(_ marker: String, on platform: Platform) {
        for pid in platform.processes(mentioning: marker) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }
}
