import Foundation
import WorkbookCore

/// The tool with the maintainers' commands, built when one of them is asked of the learner's build.
///
/// `swift run workbook` builds the tool a learner runs, without the maintainers' layer
/// (WorkbookMaintainer: the self-test, the corpus proof, the drills, `new`, `dimensions`), which was
/// a sixth of the tool's first build (Exercises/MEASUREMENTS.md, M24). Asked for one of the
/// maintainers' commands, that build builds the package's tool again with the layer
/// (``BuildSettings/maintainers``, in the package's own scratch folder, as `swift run` would), then
/// becomes that tool with the same command line, as `swift run` becomes the product it built.
package struct MaintainersBuild: Sendable {
    /// The package whose tool is built.
    package var root: URL
    package var platform: Platform

    package init(root: URL, platform: Platform) {
        self.root = root
        self.platform = platform
    }

    /// What Package.swift reads to build the tool with the maintainers' layer.
    package static let buildEnvironment = [BuildSettings.engine: BuildSettings.maintainers]

    /// The build of the tool with the maintainers' commands: `swift build --product workbook`.
    package var build: (executable: String, arguments: [String]) { swiftBuild(["--product", Layout.toolProduct]) }

    /// Where that build puts the tool: SwiftPM's answer to `--show-bin-path` for the same build.
    package var binPath: (executable: String, arguments: [String]) { swiftBuild(["--show-bin-path"]) }

    /// `swift build` over the package, in its own scratch folder, as `swift run` builds.
    private func swiftBuild(_ arguments: [String]) -> (executable: String, arguments: [String]) {
        (platform.swiftExecutable, ["build"] + arguments + ["--package-path", root.path])
    }

    /// The environment of the process that replaces this one: this process's own, marked
    /// (``WorkbookEnvironment/Name/relaunched``) so that a build still without the maintainers'
    /// commands stops instead of building again. `WORKBOOK_ENGINE` is not passed on: the builds the
    /// maintainers' commands make set it themselves.
    package static func relaunchEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.merging([WorkbookEnvironment.Name.relaunched: "1"]) { _, mark in mark }
    }

    /// Builds the tool with the maintainers' layer, then replaces this process with it, running
    /// `arguments` (this process's command line, its first element the program). Returns only by
    /// throwing: when the build fails, or when the built tool cannot be started.
    package func relaunch(_ arguments: [String]) throws -> Never {
        let built = try ChildProcess.run(build.executable, build.arguments, environment: Self.buildEnvironment, timeLimit: 1_800)
        guard built.termination == .exited(0) else {
            throw WorkbookError.maintainersBuildFailed(output: built.output)
        }
        let asked = try ChildProcess.run(binPath.executable, binPath.arguments, environment: Self.buildEnvironment, timeLimit: 120)
        let folder = asked.output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard asked.termination == .exited(0), !folder.isEmpty else {
            throw WorkbookError.maintainersBuildFailed(output: asked.output)
        }
        let tool = URL(fileURLWithPath: folder).appendingPathComponent(Layout.toolProduct).path
        let environment = Self.relaunchEnvironment(ProcessInfo.processInfo.environment)
        let reason = ChildProcess.replaceProcess(with: tool, [tool] + arguments.dropFirst(), environment: environment)
        throw WorkbookError.cannotStart(executable: tool, reason: reason)
    }
}
