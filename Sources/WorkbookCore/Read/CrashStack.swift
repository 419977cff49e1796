import Foundation

/// Where a crash happened, read from a debugger's backtrace of the crashing thread.
///
/// libdispatch on Linux traps without printing why, and the Swift backtracer cannot run under TSan,
/// so a crashed exercise is run once more under gdb (when it is installed) to find the learner's
/// line and the library call that stopped the program.
package struct CrashStack: Sendable, Equatable {
    /// "SIGILL", …
    package var signal: String?
    /// The learner's file and line nearest the top of the crashing stack.
    package var file: String?
    package var line: Int?
    /// What the library call that trapped means, in plain words, when it is a known one.
    package var reason: String?
    /// The crashing thread's frames, innermost first, as the debugger printed them (`--verbose` shows them).
    package var frames: [String] = []
    /// Where the frames come from: "gdb", or on Darwin "the crash report".
    package var source = "gdb"

    /// An empty stack from `source`, for a reader of another format to fill in (a Darwin crash report).
    package init(source: String) { self.source = source }

    /// Parses `gdb -batch -ex run -ex bt` output for the exercise file `suffix`
    /// (e.g. `/Exercises/Chapter5BuggyCounter/HitCounter.swift`).
    package init?(gdbOutput: String, learnerFileSuffix suffix: String) {
        let lines = gdbOutput.split(separator: "\n").map(String.init)
        guard let signalLine = lines.first(where: { $0.contains("received signal SIG") }) else { return nil }
        signal = signalLine.range(of: "SIG[A-Z]+", options: .regularExpression).map { String(signalLine[$0]) }
        let frames = lines.filter { $0.hasPrefix("#") }
        self.frames = Array(frames.prefix(16))
        for frame in frames {
            guard let at = frame.range(of: " at ", options: .backwards) else { continue }
            let location = frame[at.upperBound...]
            let parts = location.split(separator: ":")
            guard parts.count >= 2, parts[0].hasSuffix(suffix), let number = Int(parts[1]) else { continue }
            file = String(parts[0])
            line = number
            break
        }
        reason = Trap.recognised(inFrames: Array(frames.prefix(6)))?.explained
        if file == nil && reason == nil { return nil }
    }
}
