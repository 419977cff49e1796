import Foundation

/// What the build and the check say while they work (progress lines, never verdicts).
extension Says {
    /// Before the build: `chapters`, or "the exercises" when it is all of them.
    package static func building(_ chapters: [Chapter], all: Bool) -> String {
        "Building \(all ? "the exercises" : chapters.map { "Chapter \($0.number)" }.joined(separator: ", ")) under the Thread Sanitizer…"
    }

    /// Before a maintainers' command, in the tool a learner builds: it builds the tool with the
    /// maintainers' commands, then runs the command there (``BuildSettings/maintainers``).
    package static func buildingMaintainersTool(for command: String) -> String {
        "`\(command)` is one of the maintainers' commands, which `swift run \(Layout.toolProduct)` leaves out of the tool it builds: building the tool with them (\(BuildSettings.engine)=\(BuildSettings.maintainers)), then running `\(command)` there…"
    }

    /// SwiftPM's step counter, while it builds.
    package static func buildStep(_ done: Int, of total: Int) -> String {
        "Building under the Thread Sanitizer: step \(done) of \(total)"
    }

    /// Before each run of the tests: "Run 2 of 3…", or "Running the tests…" when there is one.
    package static func running(_ run: Int, of runs: Int) -> String {
        runs > 1 ? "Run \(run) of \(runs)…" : "Running the tests…"
    }

    /// An exercise the last build left out, left out again without trying.
    package static func stillDoesNotCompile(_ exercise: Exercise, of chapter: Chapter) -> String {
        "Exercise \(exercise.id) of Chapter \(chapter.number) still does not compile (its chapter is unchanged since the last build); building the rest of the chapter without it."
    }

    /// Exercises left out of their chapter's build because they do not compile.
    package static func leftOut(_ ids: [String], of chapter: Chapter) -> String {
        let one = ids.count == 1
        return "Exercise\(one ? "" : "s") \(ids.joined(separator: ", ")) of Chapter \(chapter.number) \(one ? "does" : "do") not compile; building the rest of the chapter without \(one ? "it" : "them")."
    }

    /// A chapter left out of the build because it does not compile.
    package static func chapterLeftOut(_ chapter: Chapter) -> String {
        "Chapter \(chapter.number) does not compile; building the other chapters without it."
    }
}
