import Foundation
import WorkbookCore

/// The effects of ``Doctor``: asks the toolchain what it is, then builds a package of a few lines
/// under the Thread Sanitizer and runs its tests exactly as `workbook check` runs the chapters' —
/// the same launch, TSan settings, report reading and crash placing — and records what it saw.
struct DoctorProbe: Sendable {
    var platform: Platform
    /// Where the probe package and its build live (the workbook's `.build-doctor`).
    var folder: URL
    var progress: @Sendable (String) -> Void = { _ in }

    /// The line of `Race.swift` that races, and of `Trap.swift` that traps.
    static let raceLine = 10
    static let trapLine = 6

    /// The probe package, file by file: one module with a race and a trap on purpose, and tests
    /// that call them in the test process and in an exit test's child.
    static let files: [String: String] = [
        "Package.swift": """
            // swift-tools-version:\(Toolchain.floor)
            // Written by `workbook doctor`: a package of a few lines built and run as the chapters are.
            import PackageDescription

            let package = Package(
                name: "WorkbookDoctorProbe",
                platforms: [.macOS(.v15)],
                targets: [
                    .target(name: "Probe", swiftSettings: [.swiftLanguageMode(.v5)]),
                    .testTarget(name: "ProbeTests", dependencies: ["Probe"]),
                ]
            )

            """,
        // Line 10 is `raceLine`.
        "Sources/Probe/Race.swift": """
            import Foundation

            package final class Tally { package var count = 0; package init() {} }

            /// Two threads add to one count with nothing ordering them: a data race on purpose.
            package func addFromTwoThreads(_ tally: Tally) {
                let done = DispatchSemaphore(value: 0)
                for _ in 0..<2 {
                    Thread.detachNewThread {
                        for _ in 0..<1_000 { tally.count += 1 }
                        done.signal()
                    }
                }
                done.wait(); done.wait()
            }

            """,
        // Line 6 is `trapLine`.
        "Sources/Probe/Trap.swift": """
            import Dispatch

            /// `sync` onto the queue that is running the caller: libdispatch stops the program.
            package func syncOntoItself() {
                let queue = DispatchQueue(label: "doctor.probe")
                queue.sync { queue.sync {} }
            }

            """,
        "Tests/ProbeTests/ProbeTests.swift": """
            import Probe
            import Testing

            @Test func race() {
                let tally = Tally()
                addFromTwoThreads(tally)
                #expect(tally.count > 0)
            }

            // TSan ends a process that reported with exit code 66: a failure.
            @Test func raceInAChild() async {
                await #expect(processExitsWith: .failure) {
                    addFromTwoThreads(Tally())
                }
            }

            @Test func trap() {
                syncOntoItself()
            }

            """,
    ]

    /// The test product SwiftPM makes of the probe.
    static let product = "WorkbookDoctorProbePackageTests"

    var package: URL { folder.appendingPathComponent("probe") }
    var scratch: URL { folder.appendingPathComponent("build") }

    /// Everything the doctor checks, observed.
    func observe() -> Doctor.Observations {
        let swift = platform.swiftExecutable
        var seen = Doctor.Observations(platform: platform, swift: swift)
        progress("Asking \(swift) what it is…")
        seen.versionOutput = run(swift, ["--version"])
        if let info = run(swift, ["-print-target-info"]).flatMap(Self.targetInfo) {
            let runtime = platform.sanitizerRuntime(resourcePath: info.resourcePath, arch: info.arch)
            seen.runtime = runtime
            seen.runtimeFound = FileManager.default.fileExists(atPath: runtime)
        }
        seen.symbolizer = platform.symbolizer
        switch platform.crashLocator {
        case let .debugger(gdb): seen.crashLocator = gdb
        case let .crashReports(folder):
            seen.crashLocator = FileManager.default.fileExists(atPath: folder.path) ? folder.path : nil
        case .none: seen.crashLocator = nil
        }
        guard seen.versionOutput != nil else { return seen }

        progress("Building a probe package under the Thread Sanitizer…")
        do {
            try write()
            let build = try ChildProcess.run(swift, ["build", "--build-tests", "--sanitize=thread",
                                                     "--package-path", package.path, "--scratch-path", scratch.path],
                                             timeLimit: 600)
            guard build.termination == .exited(0) else {
                seen.buildFailure = Grader.tail(of: build.output, lines: 12)
                return seen
            }
            seen.built = true
        } catch {
            seen.buildFailure = "\(error)"
            return seen
        }

        var launch = TestLaunch(platform: platform, packageRoot: package, scratchPath: scratch, sources: .exercises, only: nil)
        launch.product = .tests(Self.product)
        launch.withEngine = false
        let process = LaunchedTestProcess(launch: launch)
        progress("Running the probe's tests as `check` runs the chapters'…")
        seen.race = probe(process, test: "race", crash: false)
        seen.child = probe(process, test: "raceInAChild", crash: false)
        seen.trap = probe(process, test: "trap", crash: true)
        return seen
    }

    /// One test of the probe, run and read as the grader would.
    private func probe(_ process: LaunchedTestProcess, test: String, crash: Bool) -> Doctor.ProbeRun? {
        let filter = "ProbeTests\\.\(test)\\(\\)"
        guard let run = try? process.run(filters: [filter], timeLimit: 120, testsAtOnce: 1, label: "doctor-\(test)") else { return nil }
        let places = run.reports.flatMap(\.allFrames).compactMap { frame -> String? in
            guard let file = frame.file, let line = frame.line else { return nil }
            return "\((file as NSString).lastPathComponent):\(line)"
        }
        var placed: String?
        if crash, case .signaled = run.termination,
           let stack = process.crashStack(filter: filter, inChild: false, learnerFile: "/Sources/Probe/Trap.swift", after: run),
           let file = stack.file, let line = stack.line {
            placed = "\((file as NSString).lastPathComponent):\(line)"
        }
        return Doctor.ProbeRun(reportedPlaces: places, termination: run.termination, output: run.output, crashPlace: placed)
    }

    /// Writes the probe package, leaving files that already say the same (so a second doctor is a
    /// warm build).
    private func write() throws {
        for (relative, text) in Self.files {
            let url = package.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PackageMirror.replaceIfChanged(url, with: Data(text.utf8))
        }
    }

    /// What a command printed, or `nil` when it could not run or failed.
    private func run(_ executable: String, _ arguments: [String]) -> String? {
        guard let result = try? ChildProcess.run(executable, arguments, timeLimit: 60),
              result.termination == .exited(0) else { return nil }
        return result.output
    }

    /// `paths.runtimeResourcePath` and `target.arch` of `swift -print-target-info`.
    static func targetInfo(_ json: String) -> (resourcePath: String, arch: String)? {
        struct Info: Decodable {
            struct Target: Decodable { var arch: String }
            struct Paths: Decodable { var runtimeResourcePath: String }
            var target: Target
            var paths: Paths
        }
        guard let start = json.firstIndex(of: "{"),
              let info = try? JSONDecoder().decode(Info.self, from: Data(json[start...].utf8)) else { return nil }
        return (info.paths.runtimeResourcePath, info.target.arch)
    }
}

extension Doctor {
    /// Checks this machine through `platform`'s paths (building in `folder`), saying each step
    /// through `progress`.
    package static func check(platform: Platform, folder: URL, progress: @escaping @Sendable (String) -> Void = { _ in }) -> Report {
        report(DoctorProbe(platform: platform, folder: folder, progress: progress).observe())
    }
}
