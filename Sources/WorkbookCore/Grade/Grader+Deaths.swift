import Foundation
import WorkbookWire

/// Runs that ended badly: stopped by the watchdog, crashed, or stopped early.
extension Grader {
    func deathFinding(_ run: RunArtifacts, unfinished: [String]) -> Finding {
        let tail = Self.tail(of: run.output)
        switch run.termination {
        case let .timedOut(seconds, quiet):
            return Finding(kind: .hang,
                           message: Says.stopped(quiet: quiet, limit: seconds, during: unfinished),
                           detail: tail)
        case let .signaled(signal):
            return Finding(kind: .crash,
                           message: Says.crashed(signal, during: unfinished, trap: Self.crashMessage(in: run.output)),
                           detail: tail)
        case let .exited(code):
            return Finding(kind: .crash,
                           message: Says.stoppedEarly(code, during: unfinished, trap: Self.crashMessage(in: run.output)),
                           detail: tail)
        }
    }

    /// The most telling line of a crash: libdispatch's "BUG IN CLIENT", Swift's "Fatal error", a trap.
    static func crashMessage(in output: String) -> String? {
        if output.contains("ThreadSanitizer:DEADLYSIGNAL") {
            return Says.segvUnderTSan
        }
        let lines = output.split(separator: "\n")
        for needle in Trap.outputNeedles {
            if let line = lines.first(where: { $0.contains(needle) }) {
                return String(line.trimmingCharacters(in: .whitespaces).prefix(300))
            }
        }
        return nil
    }

    /// A fatal start-up failure of the sanitizer itself, said with its fix: in the test process's
    /// output, or in what an exit test recorded of its child (`issues`, their messages).
    static func sanitizerFailure(in output: String, issues: [String] = []) -> (message: String, detail: String)? {
        if output.contains(ChildSanitizer.loadedTooLate) {
            return (Says.sanitizerLoadedTooLate, tail(of: output))
        }
        if let child = issues.first(where: { $0.contains(ChildSanitizer.loadedTooLate) }) {
            return (Says.sanitizerLoadedTooLate, child)
        }
        if output.contains("ThreadSanitizer: unexpected memory mapping") {
            return (Says.sanitizerMemoryMapping, tail(of: output))
        }
        if output.contains("FATAL: ThreadSanitizer") {
            return (Says.sanitizerFatal, tail(of: output))
        }
        return nil
    }

    package static func tail(of output: String, lines count: Int = 40) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).suffix(count).joined(separator: "\n")
    }

    static func strippingMarker(_ text: String) -> String {
        guard let marker = FailureMarker.opening(text) else { return text }
        return String(text.dropFirst(marker.text.count)).trimmingCharacters(in: .whitespaces)
    }
}
