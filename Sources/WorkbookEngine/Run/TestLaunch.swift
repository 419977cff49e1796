import Foundation
import WorkbookCore

/// How a test process is started: the one thing about running the tests that differs by platform.
///
/// On Linux the grader runs an executable directly: the chapters' suites linked into one of their
/// own, `WorkbookSuites` (``BuildSettings/suites``), which spares each build SwiftPM's test
/// discovery. On macOS the suites are an `.xctest` bundle that only a runner can load; `swift test
/// --skip-build` is that runner, and it takes the same Swift Testing flags (event stream, filters).
/// It works on Linux too, which is how the code path macOS uses is tested here:
/// `WORKBOOK_LAUNCH=swift-test` selects it for every run, and the selftest's fault drill runs a
/// chapter through it.
package struct TestLaunch: Sendable, Equatable {
    package enum Method: String, Sendable {
        /// The test executable, run directly (Linux).
        case binary
        /// `swift test --skip-build` over the build already made (macOS; Linux on request).
        case swiftTest = "swift-test"
    }

    /// Whose launch this is: how its tests are started, and the `swift` that builds and starts them.
    package var platform: Platform
    var method: Method
    /// The package whose build this is.
    var packageRoot: URL
    /// The build's scratch path.
    var scratchPath: URL
    /// The build settings `swift test` must see again to find the same package graph (see Package.swift).
    var sources: SourceSet
    /// The chapters built, when not all of them (`WORKBOOK_ONLY`).
    var only: [String]?
    /// Files left out of their targets (`WORKBOOK_EXCLUDE`, `<target>/<file>`): exercises that do
    /// not compile, with their suites.
    var exclude: [String]

    /// Whether the build holds the engine and its tests (see ``BuildSettings/engine``).
    package var withEngine = true
    /// The `swift` that runs `swift test` (the platform's ``Platform/swiftExecutable``).
    var swift: String
    /// What a directly run launch starts: the chapters' suites, unless it names a test product.
    var product = Product.suites

    /// An executable a build leaves for the tests.
    package enum Product: Sendable, Equatable {
        /// The chapters' suites: the executable ``TestLaunch/suitesExecutable`` when the launch runs
        /// a binary (its build sets ``BuildSettings/suites``), else the package's test product.
        case suites
        /// A test product SwiftPM links, by its name: the engine's own tests
        /// (``TestLaunch/testProductName``), or another package's (`workbook doctor`'s probe).
        case tests(String)
    }

    /// The variable that selects ``Method/swiftTest`` on Linux.
    package static let methodVariable = WorkbookEnvironment.Name.launch

    /// A launch on `platform`, by the method it needs (``Platform/launchMethod``) unless `method` names one.
    package init(platform: Platform, method: Method? = nil, packageRoot: URL, scratchPath: URL, sources: SourceSet,
                only: [String]?, exclude: [String] = []) {
        self.platform = platform
        self.method = method ?? platform.launchMethod
        self.swift = platform.swiftExecutable
        self.packageRoot = packageRoot
        self.scratchPath = scratchPath
        self.sources = sources
        self.only = only
        self.exclude = exclude
    }

    /// What tells a test executable to run Swift Testing's tests (SwiftPM passes the same).
    package static let swiftTestingOnly = ["--testing-library", "swift-testing"]

    /// The name SwiftPM gives the package's test product: `<package>PackageTests`.
    static let testProductName = "DispatchWorkbookPackageTests"
    /// The executable the chapters' suites are linked into when the build sets ``BuildSettings/suites``
    /// (Package.swift's `WorkbookSuites` target).
    static let suitesExecutable = "WorkbookSuites"

    /// Whether the build links the chapters' suites into ``suitesExecutable``: whenever the grader
    /// starts the tests itself. `swift test` finds them only in a test product.
    var suitesAsExecutable: Bool { method == .binary }

    /// Whether the build has no test product at all, so that nothing reads the index SwiftPM writes
    /// while it builds (Linux's test discovery does): the suites as an executable, without the engine's tests.
    var buildsNoTestProduct: Bool { suitesAsExecutable && !withEngine }

    /// The test product this launch's runs use when they do not start ``suitesExecutable``.
    private var testProduct: String {
        if case .tests(let name) = product { return name }
        return Self.testProductName
    }

    /// The executable a directly run launch starts, in the build's `scratchPath`: the suites' own, or
    /// the test product SwiftPM links (an executable on Linux, a bundle on Darwin).
    var executable: URL {
        scratchPath.appendingPathComponent(product == .suites && suitesAsExecutable
                                           ? "debug/\(Self.suitesExecutable)" : "debug/\(testProduct).xctest")
    }

    /// The same build, starting the engine's own tests (a build ``withEngine``): its test product.
    package var engineTests: TestLaunch {
        var launch = self
        launch.product = .tests(Self.testProductName)
        return launch
    }

    /// The test executable, for what only a directly run binary allows (a debugger), or `nil` when
    /// the tests are started through `swift test`.
    var testBinary: URL? { method == .binary ? executable : nil }

    /// The file a build of the chapters leaves, which a build stamp describes: the executable the
    /// launch starts; under `swift test` on Darwin, the binary inside the `.xctest` bundle (the
    /// bundle is a folder, whose own size and time do not change when the binary in it does).
    var builtFile: URL {
        guard !suitesAsExecutable, platform.kind == .darwin else { return executable }
        return executable.appendingPathComponent("Contents/MacOS/\(testProduct)")
    }

    /// The settings Package.swift reads, as the build had them.
    var buildEnvironment: [String: String] {
        [BuildSettings.sources: sources.rawValue, BuildSettings.only: only?.joined(separator: ",") ?? "",
         BuildSettings.exclude: exclude.joined(separator: ","),
         BuildSettings.engine: withEngine ? "" : BuildSettings.none,
         BuildSettings.suites: suitesAsExecutable ? BuildSettings.executable : ""]
    }

    /// How the test process itself ended, from how the launched command ended: `swift test` exits 1
    /// when the test process it started died of a signal, and says which — "Exited with unexpected
    /// signal code 4" (SwiftPM 6.2) or "Process '…' exited with unexpected signal code 4" (6.3),
    /// `SwiftTestCommand.swift` at `swift-6.2-RELEASE` and `swift-6.3-RELEASE`.
    func testProcessTermination(_ termination: Termination, output: String) -> Termination {
        guard method == .swiftTest, case .exited = termination,
              let match = output.firstMatch(of: /[Ee]xited with unexpected signal code (\d+)/),
              let signal = Int32(match.1) else { return termination }
        return .signaled(signal)
    }

    /// How a run of this launch is stopped (see ``Stopping``): the test executable with its group;
    /// `swift test` through SIGINT, its group, then a sweep of what names `marker`, the run's folder.
    func stopping(marker: String) -> Stopping {
        method == .swiftTest ? .swiftPM(marker: marker, on: platform) : .group
    }

    /// The command that runs the Swift Testing tests with `testingArguments` (event stream, filters).
    package func command(_ testingArguments: [String]) -> (executable: String, arguments: [String], environment: [String: String]) {
        switch method {
        case .binary:
            return (executable.path, Self.swiftTestingOnly + testingArguments, [:])
        case .swiftTest:
            return (swift, ["test", "--skip-build", "--disable-xctest", "--sanitize=thread",
                              "--package-path", packageRoot.path, "--scratch-path", scratchPath.path] + testingArguments,
                    buildEnvironment)
        }
    }
}
