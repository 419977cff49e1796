import Foundation
import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

/// The optional tools some classroom tests use when this machine has them, found on this process's
/// PATH by the engine's own lookup (``Executables``).
extension ClassroomFixture {
    /// The first program of `names` found on PATH.
    static func program(_ names: String...) -> String? {
        names.lazy.compactMap { Executables.find($0, on: WorkbookEnvironment.process.path) }.first
    }

    /// `true` when `python3` can `import yaml`.
    static let hasPythonYAML: Bool = {
        guard let python = program("python3") else { return false }
        return (try? ChildProcess.run(python, ["-c", "import yaml"], timeLimit: 30).termination) == .exited(0)
    }()

    /// A headless Chromium, Debian's package or another's.
    static let chromium = program("chromium", "chromium-browser")
}
