import Foundation

/// What `workbook check` found.
package struct CheckReport: Sendable {
    /// One exercise over every run.
    package struct Result: Sendable {
        package var chapter: Chapter
        package var exercise: Exercise
        /// Set when the exercise does not compile: its own file (the rest of its chapter was graded
        /// without it), or its chapter as a whole.
        package var compileErrors: [CompilerError]?
        /// An exercise of this chapter (maybe this one) whose file is missing from `Exercises/`: the
        /// reason its chapter cannot compile, said as such.
        package var missing: Exercise?
        /// The verdict of each run.
        package var runs: [ExerciseVerdict] = []
        /// Known anti-patterns in the learner's file (warnings beside the verdict, never the verdict).
        package var warnings: [PatternWarning] = []
        /// The learner's file as the check read it (once, for everything that looks at it), for what
        /// is drawn from it afterwards (`explain`); `nil` when unreadable.
        package var source: String?

        /// What every run noted without failing the exercise, once each.
        var notes: [String] {
            runs.flatMap(\.notes).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }

        package init(chapter: Chapter, exercise: Exercise) {
            self.chapter = chapter
            self.exercise = exercise
        }

        package var passed: Bool { compileErrors == nil && !runs.isEmpty && runs.allSatisfy(\.passed) }

        /// The run to explain: the first that failed.
        var failingRun: ExerciseVerdict? { runs.first { !$0.passed } }

        /// How many runs failed, by kind.
        var failuresByKind: [(FailureKind, Int)] {
            let kinds = runs.compactMap(\.kind)
            return FailureKind.allCases.compactMap { kind in
                let count = kinds.filter { $0 == kind }.count
                return count > 0 ? (kind, count) : nil
            }
        }

        /// The main kind of failure, `nil` when passed.
        package var kind: FailureKind? {
            if compileErrors != nil { return .compile }
            return failingRun?.kind ?? (runs.isEmpty ? .crash : nil)
        }

        /// The findings a learner reads, for a chapter that does not compile too.
        package var findings: [Finding] {
            if let missing, let errors = compileErrors {
                let file = Layout.exerciseFile(chapter, missing)
                let message = missing == exercise
                    ? Says.fileMissing(file, missing) : Says.chapterMissingFile(chapter, file, missing)
                return [Finding(kind: .compile, message: message, file: file,
                                detail: errors.prefix(3).map { $0.summary(.fromPackageRoot) }.joined(separator: "\n"))]
            }
            if let errors = compileErrors {
                let own = errors.filter { $0.file.hasSuffix("/" + exercise.file) }
                let shown = (own.isEmpty ? errors : own).prefix(3)
                return shown.map { error in
                    var finding = Finding(kind: .compile,
                                          message: own.isEmpty && !error.file.hasSuffix("/" + exercise.file)
                                              ? Says.chapterDoesNotCompile(chapter, error)
                                              : error.message,
                                          file: Layout.trimmed(error.file), line: error.line)
                    // The compiler's own words, column and excerpt, for the `file:line:col: error:` line.
                    finding.column = error.column
                    finding.summary = error.message
                    finding.excerpt = error.excerpt
                    return finding
                }
            }
            return failingRun?.findings ?? []
        }
    }

    package var results: [Result]
    package var runs: Int
    package var buildSeconds: Double
    package var seconds: Double

    package init(results: [Result], runs: Int, buildSeconds: Double, seconds: Double) {
        self.results = results
        self.runs = runs
        self.buildSeconds = buildSeconds
        self.seconds = seconds
    }

    package var passed: Bool { results.allSatisfy(\.passed) }
}
