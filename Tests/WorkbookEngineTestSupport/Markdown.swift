import Foundation

/// What the tests that follow a Markdown file's links read of it (LessonFactsTests, StudentCopyTests).
package enum Markdown {
    /// Markdown text without its fenced code blocks.
    package static func prose(_ text: String) -> String {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }.joined(separator: "\n")
    }
}
