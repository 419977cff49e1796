import Foundation
import WorkbookCore

/// The tools the engine runs by name (`swift`, `setarch`, `gdb`, `llvm-symbolizer`, `xcrun`), found on
/// a search path once per process and remembered: every lookup goes through here (a platform's
/// ``Platform/executable(_:)`` names the search path: its environment's PATH).
package enum Executables {
    /// Each name looked up so far on each search path, with what was found (`nil`: not there).
    private static let found = Remembered<Lookup, String?>()

    private struct Lookup: Hashable {
        var name: String
        var searchPath: String
    }

    /// The first executable called `name` in the folders of `searchPath` (a PATH: folders separated by
    /// colons), or `nil`.
    package static func find(_ name: String, on searchPath: String) -> String? {
        found.value(for: Lookup(name: name, searchPath: searchPath)) { lookUp(name, on: searchPath) }
    }

    private static func lookUp(_ name: String, on searchPath: String) -> String? {
        for folder in searchPath.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
