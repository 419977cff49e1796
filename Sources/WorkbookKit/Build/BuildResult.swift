import Foundation

/// A compiler error, located.
struct CompilerError: Sendable, Equatable, Codable {
    var file: String
    var line: Int
    var column: Int
    var message: String
    /// The lines of source the compiler printed under it (`15 |     toComplete += x`, the marker
    /// line), as it printed them; empty when it printed none.
    var excerpt: [String]?

    /// How much of the file's path a summary shows.
    enum FileShown: Sendable {
        case fullPath
        /// From the package root: `Exercises/Chapter1Latch/CountdownBlock.swift`.
        case fromPackageRoot
        /// The file's name alone.
        case name
    }

    /// `file:line: message`, the one line a summary shows for an error.
    func summary(_ shown: FileShown = .fullPath) -> String {
        let path = switch shown {
        case .fullPath: file
        case .fromPackageRoot: Layout.trimmed(file)
        case .name: (file as NSString).lastPathComponent
        }
        return "\(path):\(line): \(message)"
    }
}

/// An exercise left out of its chapter's build because its own file does not compile.
struct ExcludedExercise: Sendable, Equatable {
    var chapter: Chapter
    var exercise: Exercise
    /// The compiler's errors, every one of them in the exercise's own file.
    var errors: [CompilerError]
}

/// The result of building the chapters and their tests.
struct BuildResult: Sendable {
    /// The chapters that made it into the test binary (some maybe without an exercise, see `excluded`).
    var built: [Chapter]
    /// Chapters left out because they do not compile, with their errors.
    var broken: [(chapter: Chapter, errors: [CompilerError])]
    /// Exercises left out of chapters that were built without them: each one's own file does not
    /// compile, and its suite was left out with it.
    var excluded: [ExcludedExercise] = []
    /// How to run the tests of this build, when anything was built.
    var launch: TestLaunch?
    var seconds: Double
    /// Output of the last build attempt (for --verbose and for failures outside any chapter).
    var output: String

    /// `true` when `exercise` of `chapter` is in the test binary.
    func contains(_ chapter: Chapter, _ exercise: Exercise) -> Bool {
        built.contains { $0.name == chapter.name }
            && !excluded.contains { $0.chapter.name == chapter.name && $0.exercise.id == exercise.id }
    }
}
