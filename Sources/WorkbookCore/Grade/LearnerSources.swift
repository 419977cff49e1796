import Foundation

/// The learner's exercise files as one check read them: each read once, before the runs, and
/// handed to everything that looks at it — the pattern rules, the grader's reading of a race, the
/// rules that fail a file by its form, and `explain`'s drawing.
package struct LearnerSources: Sendable, Equatable {
    /// Each file's text by its path relative to the package
    /// (`Exercises/Chapter1Latch/CountdownBlock.swift`); a file that could not be read is absent.
    package var texts: [String: String]

    package init(texts: [String: String] = [:]) {
        self.texts = texts
    }

    /// Reads each of `files` (paths relative to the package) once, with `read`.
    package init(_ files: [String], read: (String) -> String?) {
        var texts: [String: String] = [:]
        for file in files where texts[file] == nil {
            texts[file] = read(file)
        }
        self.init(texts: texts)
    }

    /// The text of the file at `path`: relative to the package, or absolute and ending with one of
    /// the relative paths read (a build's mirror of the package, the symbolizer's path); `nil` when
    /// that file was not read.
    package func text(at path: String) -> String? {
        if let text = texts[path] { return text }
        return texts.first { path.hasSuffix("/" + $0.key) }?.value
    }
}

extension LearnerSources {
    /// Reads a file as UTF-8 text, or `nil`: how a check reads the learner's files.
    package static let readFile: @Sendable (URL) -> String? = { try? String(contentsOf: $0, encoding: .utf8) }
}
