import Foundation
import WorkbookCore
import WorkbookWire

/// Grades a learner's exercises: build under TSan (leaving out chapters that do not compile), run,
/// and collect verdicts, `runs` times.
package struct Checker: Sendable {
    var workbook: Workbook
    var scratchPath: URL
    var progress: @Sendable (String) -> Void
    /// Whether the build reports SwiftPM's every step (see ``Builder/showsSteps``).
    package var showsBuildSteps = false
    /// Whose ways of building, starting tests, reading reports and locating crashes apply (the fault
    /// drill runs Darwin's here).
    package var platform: Platform
    /// What runs each build (see ``Builder/packageBuild``); `nil`: SwiftPM under TSan.
    var packageBuild: (any PackageBuild)?
    /// What starts the test processes over a build; `nil`: ``LaunchedTestProcess`` on ``platform``.
    /// Tests give recorded runs here, so a whole check is tested without a compiler.
    var testProcess: (@Sendable (TestLaunch) -> any TestProcess)?
    /// How many scenarios explored tests run: `check`'s time per test, or a classroom's fixed count.
    package var exploration: Budget = .check
    /// Where each test run's artifacts are kept (``WorkbookEnvironment/keepArtifacts``); `nil`: nowhere.
    package var artifactsKeptIn: URL?
    /// How the learner's files are read — each once per check (see ``LearnerSources``); tests count here.
    var readSource: @Sendable (URL) -> String? = LearnerSources.readFile

    package init(workbook: Workbook, platform: Platform, scratchPath: URL? = nil, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.workbook = workbook
        self.platform = platform
        // The CLI passes WORKBOOK_CHECK_SCRATCH's folder (see ``WorkbookEnvironment/checkScratch``).
        self.scratchPath = scratchPath ?? workbook.layout.url(Layout.scratch(.check))
        self.progress = progress
    }

    /// Grades `items` (each exercise with its chapter) `runs` times.
    package func check(_ items: [ExerciseRef], runs: Int = 1) throws -> CheckReport {
        let start = Date()
        // Only the chapters asked for are built: the first verdict of a fresh clone comes after one
        // chapter's build, not five. Another chapter is built when it is asked for; the modules built
        // before stay in the scratch folder, so going from one selection to another only links again.
        let chapters = Self.chapters(of: items, in: workbook)
        progress(Says.building(chapters, all: chapters.count == workbook.chapters.count))
        var builder = Builder(workbook: workbook, platform: platform, sources: .exercises, scratchPath: scratchPath, progress: progress)
        builder.showsSteps = showsBuildSteps
        builder.packageBuild = packageBuild
        let build = try builder.build(chapters)

        // The learner's files, read once: what the compiler's kept warnings, the pattern rules, the
        // grader and `explain` look at.
        let files = items.map { Layout.exerciseFile($0.chapter, $0.exercise) }
        let learner = LearnerSources(files, read: { readSource(workbook.layout.url($0)) })
        let compilerWarnings = CompilerWarnings(memory: scratchPath.appendingPathComponent("workbook-warnings.json"))
            .update(output: build.output, files: files, sources: learner)
        var results = items.map { item in
            var result = CheckReport.Result(chapter: item.chapter, exercise: item.exercise)
            let file = Layout.exerciseFile(item.chapter, item.exercise)
            result.source = learner.text(at: file)
            let fromCompiler = compilerWarnings[file] ?? []
            result.warnings = ((result.source.map(PatternCheck.warnings(in:)) ?? []) + fromCompiler).sorted { $0.line < $1.line }
            return result
        }
        for (chapter, errors) in build.broken {
            let missing = chapter.exercises.first { !FileManager.default.fileExists(atPath: workbook.exerciseFile(chapter, $0).path) }
            for index in results.indices where results[index].chapter.name == chapter.name {
                results[index].compileErrors = errors
                results[index].missing = missing
            }
        }
        // An exercise left out of its chapter's build: its own file does not compile. The chapter's
        // other exercises were built without it and are graded as usual.
        for exclusion in build.excluded {
            for index in results.indices
            where results[index].chapter.name == exclusion.chapter.name && results[index].exercise.id == exclusion.exercise.id {
                results[index].compileErrors = exclusion.errors
            }
        }
        let runnable = items.filter { build.contains($0.chapter, $0.exercise) }
        if let launch = build.launch, !runnable.isEmpty {
            let runner = TestRunner(process: testProcess?(launch) ?? launchedProcess(launch), learner: learner)
            for run in 1...runs {
                progress(Says.running(run, of: runs))
                for verdict in try runner.run(runnable) {
                    if let index = results.firstIndex(where: { $0.exercise.id == verdict.exercise.id }) {
                        results[index].runs.append(verdict)
                    }
                }
            }
        }
        return CheckReport(results: results, runs: runs, buildSeconds: build.seconds,
                           seconds: Date().timeIntervalSince(start))
    }
}

package extension Checker {
    /// The real test processes over `launch`, on ``platform``, exploring as ``exploration`` says.
    func launchedProcess(_ launch: TestLaunch) -> any TestProcess {
        var process = LaunchedTestProcess(launch: launch)
        process.exploration = exploration
        process.artifactsKeptIn = artifactsKeptIn
        return process
    }

    /// The chapters `items` belong to, once each, in the workbook's order.
    static func chapters(of items: [ExerciseRef], in workbook: Workbook) -> [Chapter] {
        workbook.chapters.filter { chapter in items.contains { $0.chapter.name == chapter.name } }
    }
}
