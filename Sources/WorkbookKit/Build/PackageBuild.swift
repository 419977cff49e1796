import Foundation

/// Runs one build of the package with some chapters only and some files left out: the seam between
/// SwiftPM and the ``Builder``'s policy of leaving out what does not compile.
protocol PackageBuild: Sendable {
    /// Builds the chapters `only` names (all when `nil`) and their tests, without the
    /// `<target>/<file>` entries of `exclude`.
    func run(only: [String]?, exclude: [String]) throws -> ChildResult
}

/// `swift build --build-tests --sanitize=thread` over a builder's package and scratch path, with
/// SwiftPM's step count as progress when the builder shows steps.
struct SwiftPMBuild: PackageBuild {
    let builder: Builder

    func run(only: [String]?, exclude: [String]) throws -> ChildResult {
        var settings = TestLaunch(packageRoot: builder.workbook.root, scratchPath: builder.scratchPath,
                                  sources: builder.sources, only: only, exclude: exclude)
        settings.withEngine = builder.withEngine
        var onLine: (@Sendable (String) -> Void)?
        if builder.showsSteps {
            let progress = builder.progress
            onLine = { line in
                guard let step = Builder.buildStep(line) else { return }
                progress(Says.buildStep(step.done, of: step.of))
            }
        }
        return try ChildProcess.run(
            "swift",
            ["build", "--build-tests", "--sanitize=thread",
             "--package-path", builder.workbook.root.path, "--scratch-path", builder.scratchPath.path],
            environment: settings.buildEnvironment, timeLimit: 1_800,
            onLine: onLine)
    }
}
