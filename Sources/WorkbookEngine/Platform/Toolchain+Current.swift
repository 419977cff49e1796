import Foundation
import WorkbookCore

// The toolchain found on this machine: `swift --version`, asked once.
extension Toolchain {
    /// The toolchain the `swift` on PATH belongs to, asked once; `nil` when it cannot be asked.
    package static let current: Toolchain? = {
        guard let result = try? ChildProcess.run(Platform.host.swiftExecutable, ["--version"], timeLimit: 60),
              result.termination == .exited(0) else { return nil }
        return Toolchain(versionOutput: result.output)
    }()

    /// The toolchain in use, or, when `swift --version` cannot be read, the newest the workbook knows.
    package static var inUse: Toolchain { current ?? Toolchain(version: Version(6, 3)) }
}
