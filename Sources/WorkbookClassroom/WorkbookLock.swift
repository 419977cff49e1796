import Foundation
import WorkbookCore
import WorkbookEngine

/// `workbook.lock`: what was assigned, and a SHA-256 of every protected file (``ProtectedPaths``)
/// as the student copy was handed out, so that grading can tell which of them a student changed.
package struct WorkbookLock: Codable, Sendable, Equatable {
    /// The lock's file name, at the package root.
    package static let fileName = Layout.lockFile
    /// The format this version of the workbook writes and reads.
    static let currentVersion = 1

    /// The lock's format.
    var version: Int
    /// The chapters and points assigned.
    package var assignment: ClassroomAssignment
    /// SHA-256 (hex) of each protected file, by its path from the package root.
    var files: [String: String]

    package init(assignment: ClassroomAssignment, files: [String: String]) {
        self.version = Self.currentVersion
        self.assignment = assignment
        self.files = files
    }

    /// The lock of the protected files under `root` as they are now.
    static func make(root: URL, assignment: ClassroomAssignment) throws -> WorkbookLock {
        WorkbookLock(assignment: assignment, files: try digests(under: root))
    }

    /// Reads `workbook.lock` under `root`.
    package static func read(root: URL) throws -> WorkbookLock {
        let url = root.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ClassroomError(Says.noLock(fileName, in: root.path), isBadInput: false)
        }
        let lock: WorkbookLock
        do {
            lock = try JSONDecoder().decode(WorkbookLock.self, from: data)
        } catch {
            throw ClassroomError(Says.lockUnreadable(fileName, error), isBadInput: false)
        }
        guard lock.version == currentVersion else {
            throw ClassroomError(Says.lockFormat(fileName, lock.version, reads: currentVersion), isBadInput: false)
        }
        return lock
    }

    /// The lock as written to disk: pretty, with sorted keys, so that it diffs well.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Writes `workbook.lock` under `root`.
    func write(root: URL) throws {
        try encoded().write(to: root.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// Every protected file under `root` that differs from the lock, sorted by path: changed,
    /// missing, or added (a new file among the protected ones).
    package func verify(root: URL) throws -> [LockViolation] {
        let now = try Self.digests(under: root)
        var violations: [LockViolation] = []
        for (path, digest) in files {
            if let current = now[path] {
                if current != digest { violations.append(LockViolation(kind: .changed, path: path)) }
            } else {
                violations.append(LockViolation(kind: .missing, path: path))
            }
        }
        for path in now.keys where files[path] == nil {
            violations.append(LockViolation(kind: .added, path: path))
        }
        return violations.sorted { $0.path < $1.path }
    }

    /// The digest of every protected file under `root`. A symbolic link's digest is that of where it
    /// points, so that turning a file into a link counts as a change.
    private static func digests(under root: URL) throws -> [String: String] {
        var digests: [String: String] = [:]
        for path in try ProtectedPaths.list(under: root) {
            let url = root.appendingPathComponent(path)
            if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                digests[path] = SHA256.hex(Data("symbolic link to \(destination)".utf8))
            } else {
                digests[path] = SHA256.hex(try Data(contentsOf: url))
            }
        }
        return digests
    }
}
