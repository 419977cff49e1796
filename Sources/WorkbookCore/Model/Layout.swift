import Foundation

/// Where everything lives in a workbook package: the one place that knows folder and file names.
///
/// Paths are given relative to the package root, as learners see them in messages
/// (`Exercises/Chapter1Latch/CountdownBlock.swift`); ``url(_:)`` resolves one against ``root``.
package struct Layout: Sendable, Equatable {
    /// The package root (the folder with Package.swift).
    var root: URL

    package init(root: URL) { self.root = root }

    // MARK: Names

    /// The package manifest.
    package static let packageManifest = "Package.swift"
    /// The engine and the `workbook` tool.
    package static let sourcesFolder = "Sources"
    /// The chapters' suites, the shared test support, the engine's tests, the near misses.
    package static let testsFolder = "Tests"
    /// A chapter's manifest, beside its exercises.
    package static let chapterManifest = "chapter.json"
    /// A chapter's lesson, beside its exercises.
    package static let lessonName = "README.md"
    /// A chapter's hints, beside its solutions.
    static let hintsName = "hints.md"
    /// The learner's progress (git-ignored).
    package static let stateFile = ".workbook-state.json"
    /// Where `reset` keeps the learner's files it replaces.
    package static let backupsFolder = ".workbook-backups"
    /// A student copy's lock (``WorkbookLock`` in WorkbookClassroom): what was assigned, and the
    /// protected files' hashes. Its presence marks a student copy.
    package static let lockFile = "workbook.lock"
    /// The teacher's fingerprints of the correct answers, beside a student copy, never committed.
    package static let teacherFile = ".workbook-teacher.json"
    /// A student copy's autograding workflow (``ClassroomWorkflow`` in WorkbookClassroom).
    package static let classroomWorkflow = ".github/workflows/classroom.yml"
    /// The workbook's documents beyond the README (how grading works, platforms, teaching,
    /// maintaining): a DocC catalog in the tool's target, which SwiftPM reads as documentation, not code.
    package static let documentationFolder = "\(sourcesFolder)/workbook/Workbook.docc"
    /// The measurements the lessons, the grader's messages and the documents cite (M1, M2, …).
    package static let measurementsPage = "\(SourceSet.exercises.folder)/MEASUREMENTS.md"

    /// The tool's product and executable target: what `swift run workbook` builds and runs.
    package static let toolProduct = "workbook"

    /// The folders (and, with ``packageManifest``, the files) a build of the package reads.
    package static let buildInputs = [sourcesFolder, testsFolder, SourceSet.exercises.folder, SourceSet.solutions.folder]
    /// What the learner is not meant to edit: a grade is only as trustworthy as these.
    package static let frozen = [testsFolder, packageManifest, SourceSet.solutions.folder, sourcesFolder]

    // MARK: Paths relative to the root

    /// A chapter's folder in `sources`: `Exercises/Chapter1Latch`.
    package static func chapterFolder(_ chapter: Chapter, in sources: SourceSet = .exercises) -> String {
        "\(sources.folder)/\(chapter.name)"
    }

    /// An exercise's file in `sources`: `Exercises/Chapter1Latch/CountdownBlock.swift`.
    package static func exerciseFile(_ chapter: Chapter, _ exercise: Exercise, in sources: SourceSet = .exercises) -> String {
        "\(chapterFolder(chapter, in: sources))/\(exercise.file)"
    }

    /// A chapter's manifest: `Exercises/Chapter1Latch/chapter.json`.
    package static func manifest(of folderName: String) -> String {
        "\(SourceSet.exercises.folder)/\(folderName)/\(chapterManifest)"
    }

    /// A chapter's lesson: `Exercises/Chapter1Latch/README.md`.
    package static func lesson(_ chapter: Chapter) -> String {
        "\(chapterFolder(chapter))/\(lessonName)"
    }

    /// A chapter's hints: `Solutions/Chapter1Latch/hints.md`.
    package static func hints(_ chapter: Chapter) -> String {
        "\(chapterFolder(chapter, in: .solutions))/\(hintsName)"
    }

    /// A chapter's suites: `Tests/Chapter1LatchTests`.
    package static func testFolder(_ chapter: Chapter) -> String {
        "\(testsFolder)/\(chapter.testModule)"
    }

    /// An exercise's suite: `Tests/Chapter1LatchTests/Exercise1_1Tests.swift`.
    package static func suiteFile(_ chapter: Chapter, _ exercise: Exercise) -> String {
        "\(testFolder(chapter))/\(exercise.suite).swift"
    }

    /// A chapter's near misses and correct alternatives: `Tests/NearMisses/Chapter1Latch`.
    static func nearMissFolder(_ chapter: Chapter) -> String {
        "\(testsFolder)/NearMisses/\(chapter.name)"
    }

    /// The kept copy of an exercise's starter, which `reset` restores from (no git history needed):
    /// `Tests/Starters/Chapter1Latch/CountdownBlock.swift`. The selftest holds it equal to the starter.
    package static func starterCopy(_ chapter: Chapter, _ exercise: Exercise) -> String {
        "\(startersFolder(chapter))/\(exercise.file)"
    }

    /// Where a chapter's starters are kept: `Tests/Starters/Chapter1Latch`.
    package static func startersFolder(_ chapter: Chapter) -> String {
        "\(testsFolder)/Starters/\(chapter.name)"
    }

    // MARK: The engine's own tests

    /// The engine's test targets, each a folder of `Tests/` named after the module whose code it
    /// tests, and the command line's. What the self-test's unit-test step runs; a student copy has none.
    package static let engineTestSuites = ["WorkbookCoreTests", "WorkbookEngineTests", "WorkbookClassroomTests",
                                           "WorkbookMaintainerTests", "WorkbookCLITests"]
    /// What the engine's tests share (the recorded fixtures, the classroom tests' helpers): a target
    /// of its own in `Tests/`, not a test target.
    package static let engineTestSupport = "WorkbookEngineTestSupport"
    /// Every target of the engine's tests, each in its folder of `Tests/`: built only when
    /// `WORKBOOK_ENGINE=tests`. Package.swift's `engineTestTargets` names the same (it cannot import
    /// this; a unit test holds the two equal).
    package static let engineTestTargets = engineTestSuites + [engineTestSupport]

    /// The recorded runs, build outputs, TSan reports and drills the engine's tests and the
    /// self-test read: the one place they are, every path below derived from it.
    package static let fixturesFolder = "\(testsFolder)/Fixtures"
    /// The faulty exercises the selftest's fault drill swaps in.
    package static let drillFixtures = "\(fixturesFolder)/drill"
    /// What the classroom drill swaps in (a submission up to mischief).
    package static let classroomFixtures = "\(fixturesFolder)/classroom"

    /// Where a backup of an exercise's file made at `stamp` goes.
    package static func backup(_ chapter: Chapter, _ exercise: Exercise, stamp: String) -> String {
        "\(backupsFolder)/\(stamp)/\(chapter.name)/\(exercise.file)"
    }

    /// A build's scratch folder, one per purpose so that each stays incremental: `.build-check`.
    package static func scratch(_ purpose: Scratch) -> String { ".build-\(purpose.rawValue)" }

    /// What a scratch folder is for.
    package enum Scratch: String, Sendable {
        /// `workbook check` and `watch`.
        case check
        case selftestSolutions = "selftest-solutions"
        case selftestExercises = "selftest-exercises"
        case selftestCorpus = "selftest-corpus"
        case selftestDrill = "selftest-drill"
        case selftestClassroom = "selftest-classroom"
        /// The teacher's batch: a package copy and a build per job.
        case grade
        /// `workbook doctor`: its probe package and that package's build.
        case doctor
    }

    // MARK: Resolving

    /// `relative` resolved against the root.
    package func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// `url` as a path relative to the root, when it lies inside it (else its full path).
    package func relative(_ url: URL) -> String {
        let base = Self.canonical(root) + "/"
        let path = Self.canonical(url)
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// The one spelling of a path that two spellings of the same file share, for comparing them:
    /// links resolved (on macOS `/tmp` and `/var` are links into `/private`, and Foundation hands
    /// out either form; `resolvingSymlinksInPath` gives both the same one), `.` and `..` removed.
    package static func canonical(_ url: URL) -> String {
        url.resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// A full path (from a compiler or a backtrace, maybe of a copy of the package elsewhere) made
    /// relative at its last top-level folder: `/…/Exercises/Chapter1Latch/X.swift` →
    /// `Exercises/Chapter1Latch/X.swift`.
    static func trimmed(_ path: String) -> String {
        for folder in [SourceSet.exercises.folder, SourceSet.solutions.folder, testsFolder, sourcesFolder] {
            if let range = path.range(of: "/\(folder)/", options: .backwards) {
                return folder + "/" + path[range.upperBound...]
            }
        }
        return path
    }
}

package extension Workbook {
    /// Where this workbook's files are.
    var layout: Layout { Layout(root: root) }
}
