import Foundation

/// How a child process ended.
package enum Termination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// It was ended by this signal (a trap is SIGILL or SIGTRAP, a crash SIGSEGV or SIGBUS).
    case signaled(Int32)
    /// The watchdog killed it after this many seconds in all; `quiet` is set when it was killed
    /// for showing no progress for that long.
    case timedOut(seconds: Double, quiet: Double?)

    /// A plain description: "exit 1", "signal 4 (SIGILL)", "killed after 30 s".
    package var description: String {
        switch self {
        case let .exited(code): "exit \(code)"
        case let .signaled(signal): "signal \(signal) (\(signalName(signal)))"
        case let .timedOut(seconds, quiet):
            quiet.map { "killed by the watchdog after \(Int($0)) s without progress" } ?? "killed by the watchdog after \(Int(seconds)) s"
        }
    }
}

/// The name of a signal number, e.g. "SIGILL".
func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGSEGV: "SIGSEGV"
    case SIGBUS: "SIGBUS"
    case SIGKILL: "SIGKILL"
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGFPE: "SIGFPE"
    default: "signal \(signal)"
    }
}
