import Foundation
import WorkbookCore

/// An exercise left out of its chapter's build because its own file does not compile.
package struct ExcludedExercise: Sendable, Equatable {
    package var chapter: Chapter
    package var exercise: Exercise
    /// The compiler's errors, every one of them in the exercise's own file.
    package var errors: [CompilerError]

    /// Whether it is a starter caught as its manifest says: one that must not compile, with every
    /// error in its own file (the builder leaves out only such exercises; checked again here).
    package var isCaughtAsExpected: Bool {
        exercise.expectedFailure == .compile && !errors.isEmpty
            && errors.allSatisfy { $0.file.hasSuffix("/\(chapter.name)/\(exercise.file)") }
    }
}

/// The result of building the chapters and their tests.
package struct BuildResult: Sendable {
    /// The chapters that made it into the test binary (some maybe without an exercise, see `excluded`).
    var built: [Chapter]
    /// Chapters left out because they do not compile, with their errors.
    package var broken: [(chapter: Chapter, errors: [CompilerError])]
    /// Exercises left out of chapters that were built without them: each one's own file does not
    /// compile, and its suite was left out with it.
    package var excluded: [ExcludedExercise] = []
    /// How to run the tests of this build, when anything was built.
    package var launch: TestLaunch?
    var seconds: Double
    /// Output of the last build attempt (for --verbose and for failures outside any chapter).
    var output: String

    /// `true` when `exercise` of `chapter` is in the test binary.
    package func contains(_ chapter: Chapter, _ exercise: Exercise) -> Bool {
        built.contains { $0.name == chapter.name }
            && !excluded.contains { $0.chapter.name == chapter.name && $0.exercise.id == exercise.id }
    }
}
