import Foundation
import WorkbookCore

// The toolchain a platform's `swift` belongs to: `swift --version`, asked once per platform and
// search path.
extension Platform {
    /// The toolchain ``swiftExecutable`` belongs to, asked once; `nil` when it cannot be asked.
    package var toolchain: Toolchain? {
        Self.toolchains.value(for: lookup) {
            let result = try? ChildProcess.run(swiftExecutable, ["--version"], timeLimit: 60)
            return result.flatMap { $0.termination == .exited(0) ? Toolchain(versionOutput: $0.output) : nil }
        }
    }

    private static let toolchains = Remembered<Lookup, Toolchain?>()

    /// The toolchain in use, or, when `swift --version` cannot be read, the newest the workbook knows.
    package var toolchainInUse: Toolchain { toolchain ?? Toolchain(version: Toolchain.Version(6, 3)) }
}
