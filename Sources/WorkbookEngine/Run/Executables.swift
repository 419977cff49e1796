import Foundation
import WorkbookCore

/// The tools the engine runs by name (`swift`, `setarch`, `gdb`, `llvm-symbolizer`, `xcrun`), found on
/// a search path once per process and remembered: every lookup goes through here (a platform's
/// ``Platform/executable(_:)`` names the search path: its environment's PATH).
package enum Executables {
    /// Each name looked up so far on each search path, with what was found (`nil`: not there).
    private static let found = Locked<[Lookup: String?]>([:])

    private struct Lookup: Hashable {
        var name: String
        var searchPath: String
    }

    /// The first executable called `name` in the folders of `searchPath` (a PATH: folders separated by
    /// colons), or `nil`.
    package static func find(_ name: String, on searchPath: String) -> String? {
        let lookup = Lookup(name: name, searchPath: searchPath)
        return found.withLock { found in
            if let known = found[lookup] { return known }
            let path = lookUp(name, on: searchPath)
            found[lookup] = .some(path)
            return path
        }
    }

    private static func lookUp(_ name: String, on searchPath: String) -> String? {
        for folder in searchPath.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
