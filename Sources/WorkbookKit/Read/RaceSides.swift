import Foundation

/// The accesses of one race report, each placed in one file (the learner's): the frames of that
/// file on its stack, innermost first. What `check` names in one sentence and `explain` draws.
///
/// Symbolizing sometimes loses a frame's line (TSan prints the file without `:line`); the same
/// function's line elsewhere in the report stands in for it.
struct RaceSides: Sendable, Equatable {
    /// One access of the race.
    struct Side: Sendable, Equatable {
        var isWrite: Bool
        /// `true` for the access TSan remembered from before ("Previous write …").
        var isPrevious: Bool
        /// "T5", "main thread", …
        var thread: String
        /// This access's frames in the file, innermost first (a line is `nil` where none was found).
        var frames: [TSanReport.Frame]
        /// Where the access was made when none of its frames is in the file: the innermost frame
        /// that names a file (the tests, the test support).
        var elsewhere: TSanReport.Frame?

        /// The innermost line of the file on this access's stack.
        var line: Int? { frames.lazy.compactMap(\.line).first }
    }

    var sides: [Side]

    /// The sides of `report`, placed in the file whose path ends with `suffix` (see ``sourceFile(_:isIn:)``).
    init(_ report: TSanReport, in suffix: String) {
        let known = report.allFrames.filter { $0.isIn(suffix) && $0.line != nil }
        sides = report.accesses.map { access in
            let frames = access.frames.filter { $0.isIn(suffix) }.map { frame in
                var frame = frame
                if frame.line == nil { frame.line = known.first { $0.symbol == frame.symbol }?.line }
                return frame
            }
            return Side(isWrite: access.isWrite, isPrevious: access.isPrevious, thread: access.thread, frames: frames,
                        elsewhere: frames.isEmpty ? access.frames.first { $0.file != nil } : nil)
        }
    }

    /// The sides in the order TSan saw them: the remembered access first.
    var inOrder: [Side] { sides.filter(\.isPrevious) + sides.filter { !$0.isPrevious } }
}
