import Foundation

/// How a report writes the path of a file of the package: from the package root
/// (`Exercises/Chapter1Latch/CountdownBlock.swift`), or in full.
package struct PathStyle: Sendable, Equatable {
    /// The package root to put before a path, or `nil` to write paths from the package root.
    var root: String?

    /// Paths from the package root, as every other line of a report writes them.
    package static let fromPackageRoot = PathStyle(root: nil)

    /// From the package root when `currentDirectory` is the package root — what a terminal, or an
    /// editor whose workspace is the package, resolves them against — and in full from anywhere else.
    package init(root: URL, currentDirectory: URL) {
        let package = root.standardizedFileURL.path
        self.root = currentDirectory.standardizedFileURL.path == package ? nil : package
    }

    init(root: String?) { self.root = root }

    /// `relative` (a path from the package root, or already a full path) in this style.
    func path(_ relative: String) -> String {
        guard let root, !relative.hasPrefix("/") else { return relative }
        return root + "/" + relative
    }
}

extension Finding {
    /// What the one-line forms of this finding say: ``summary``, or the message's first sentence.
    var oneSentence: String { summary ?? Says.sentences(in: message).first ?? message }

    /// The finding as the Swift compiler prints a diagnostic — `path:line:col: error: summary` — the
    /// form VS Code's problem matchers, Xcode and vim's quickfix read, followed by the compiler's
    /// excerpt for a compile error. A finding with no place of its own is placed at the top of
    /// `exerciseFile`, the learner's.
    func diagnostic(exerciseFile: String, paths: PathStyle) -> [String] {
        let file = self.file ?? exerciseFile
        let line = self.file == nil ? 1 : (self.line ?? 1)
        let column = self.file == nil || self.line == nil ? 1 : (column ?? 1)
        let said = kind == .compile && summary != nil ? oneSentence : "\(kind.label): \(oneSentence)"
        return ["\(paths.path(file)):\(line):\(column): error: \(said)"] + (excerpt ?? [])
    }
}

extension PatternWarning {
    /// The warning as the compiler prints one: `path:line:1: warning: its first sentence`.
    func diagnostic(file: String, paths: PathStyle) -> String {
        "\(paths.path(file)):\(line):1: warning: \(Says.sentences(in: message).first ?? message)"
    }
}
