import Foundation

/// A compiler error, located.
package struct CompilerError: Sendable, Equatable, Codable {
    package var file: String
    package var line: Int
    package var column: Int
    package var message: String
    /// The lines of source the compiler printed under it (`15 |     toComplete += x`, the marker
    /// line), as it printed them; empty when it printed none.
    package var excerpt: [String]?

    package init(file: String, line: Int, column: Int, message: String, excerpt: [String]? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.excerpt = excerpt
    }

    /// How much of the file's path a summary shows.
    package enum FileShown: Sendable {
        case fullPath
        /// From the package root: `Exercises/Chapter1Latch/CountdownBlock.swift`.
        case fromPackageRoot
        /// The file's name alone.
        case name
    }

    /// `file:line: message`, the one line a summary shows for an error.
    package func summary(_ shown: FileShown = .fullPath) -> String {
        let path = switch shown {
        case .fullPath: file
        case .fromPackageRoot: Layout.trimmed(file)
        case .name: (file as NSString).lastPathComponent
        }
        return "\(path):\(line): \(message)"
    }
}
