import Foundation

/// A protected file that is not as the lock has it.
package struct LockViolation: Codable, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Codable, Sendable {
        /// Its contents differ from the lock's.
        case changed
        /// The lock has it; the copy does not.
        case missing
        /// A file among the protected ones that the lock does not have.
        case added
    }

    package var kind: Kind
    /// Its path from the package root.
    package var path: String

    package init(kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// "Tests/Chapter1LatchTests/Exercise1_1Tests.swift was changed".
    package var description: String {
        switch kind {
        case .changed: "\(path) was changed"
        case .missing: "\(path) was deleted"
        case .added: "\(path) was added"
        }
    }

    /// The chapters this file can sway (see ``ProtectedPaths/chapters(concernedBy:in:)``).
    func affectedChapters(in workbook: Workbook) -> [Chapter] {
        ProtectedPaths.chapters(concernedBy: path, in: workbook)
    }
}
