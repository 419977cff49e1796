import Foundation
import WorkbookCore

/// Runs one build of the package with some chapters only and some files left out: the seam between
/// SwiftPM and the ``Builder``'s policy of leaving out what does not compile.
protocol PackageBuild: Sendable {
    /// Builds the chapters `only` names (all when `nil`) and their tests, without the
    /// `<target>/<file>` entries of `exclude`.
    func run(only: [String]?, exclude: [String]) throws -> ChildResult
}

/// `swift build --build-tests --sanitize=thread` over a builder's package and scratch path, with
/// SwiftPM's step count as progress when the builder shows steps — or nothing at all, when the last
/// successful build there read exactly what this one would (``BuildStamp``).
struct SwiftPMBuild: PackageBuild {
    let builder: Builder

    func run(only: [String]?, exclude: [String]) throws -> ChildResult {
        let settings = builder.launch(only: only, exclude: exclude)
        // The self-test proves every build (and builds the engine too): it never skips one.
        let stamps = builder.remembersExclusions && !builder.withEngine
        let stampFile = BuildStamp.file(in: builder.scratchPath, sources: builder.sources)
        let before = stamps ? BuildStamp.current(of: settings) : nil
        if let before, BuildStamp.kept(in: stampFile) == before {
            return ChildResult(termination: .exited(0), output: "", outputTruncated: false, seconds: 0)
        }
        BuildStamp.forget(in: stampFile)
        let result = try swiftBuild(settings)
        if let before, result.termination == .exited(0) {
            // The inputs as they were when the build started; the build's own files as it left them.
            var stamp = BuildStamp.current(of: settings)
            stamp.keepInputs(of: before)
            stamp.keep(in: stampFile)
        }
        return result
    }

    private func swiftBuild(_ settings: TestLaunch) throws -> ChildResult {
        var onLine: (@Sendable (String) -> Void)?
        if builder.showsSteps {
            let progress = builder.progress
            onLine = { line in
                guard let step = Builder.buildStep(line) else { return }
                progress(Says.buildStep(step.done, of: step.of))
            }
        }
        return try ChildProcess.run(
            settings.swift,
            ["build", "--build-tests", "--sanitize=thread",
             // Line tables are all a grading build needs: TSan's reports and crash stacks name
             // functions, files and lines from them. Full debug information made a first build of
             // a chapter about 1.5 s slower (13.2 → 11.9 s, Swift 6.3.1, Linux x86-64, two cores).
             "-Xswiftc", "-gline-tables-only"]
            // Without a test product nothing reads the index SwiftPM writes while it builds (on
            // Linux, test discovery does); editors keep their own.
            + (settings.buildsNoTestProduct ? ["--disable-index-store"] : [])
            + ["--package-path", builder.workbook.root.path, "--scratch-path", builder.scratchPath.path],
            environment: settings.buildEnvironment, timeLimit: 1_800,
            onLine: onLine)
    }
}
