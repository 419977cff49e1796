import Foundation
import WorkbookCore

/// The tools the engine runs by name (`swift`, `setarch`, `gdb`, `llvm-symbolizer`, `xcrun`), found on
/// PATH once per process and remembered: every lookup goes through here.
package enum Executables {
    /// Each name looked up so far, with what was found (`nil`: not on PATH).
    private static let found = Locked<[String: String?]>([:])

    /// The first executable called `name` on PATH, or `nil`.
    package static func find(_ name: String) -> String? {
        found.withLock { found in
            if let known = found[name] { return known }
            let path = lookUp(name)
            found[name] = .some(path)
            return path
        }
    }

    private static func lookUp(_ name: String) -> String? {
        let path = WorkbookEnvironment.process.path
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
