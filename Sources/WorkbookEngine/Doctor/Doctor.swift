import Foundation
import WorkbookCore
import WorkbookWire

/// `workbook doctor`: what a first user on a new machine runs, and what a teacher asks for when a
/// student says "it doesn't work" — each link of the chain a verdict depends on, checked end to end
/// on a probe package of a few lines, with a ✔ or ✘ and the fix for each.
///
/// The checks' effects (running `swift`, building and running the probe) are ``DoctorProbe``'s; the
/// judgments here are pure functions of what it saw (``Observations``), so the Darwin ones are
/// tested on Linux from recorded or reconstructed observations.
package struct Doctor: Sendable {
    /// How one line came out.
    package enum Status: String, Sendable, Codable, Equatable {
        /// It works.
        case passed
        /// It does not, and verdicts are wrong or missing until it is fixed.
        case failed
        /// It cannot be checked or does not exist here, and grading works without it — less well.
        case limited
    }

    /// One line of the report.
    package struct Line: Sendable, Codable, Equatable {
        /// A stable name for scripts and bug reports: `toolchain`, `sanitizer-runtime`, …
        package var id: String
        package var status: Status
        /// What was checked, for the ✔/✘ line.
        package var title: String
        /// What was found.
        package var detail: String
        /// What to do, when it is not ✔.
        package var fix: String?
    }

    /// The whole report, as `--json` prints it.
    package struct Report: Sendable, Codable, Equatable {
        package var platform: String
        package var lines: [Line]
        /// No line failed.
        package var passed: Bool { !lines.contains { $0.status == .failed } }

        private enum CodingKeys: String, CodingKey { case platform, lines, passed }
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(platform, forKey: .platform)
            try container.encode(lines, forKey: .lines)
            try container.encode(passed, forKey: .passed)
        }
        package init(platform: String, lines: [Line]) {
            self.platform = platform
            self.lines = lines
        }
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            platform = try container.decode(String.self, forKey: .platform)
            lines = try container.decode([Line].self, forKey: .lines)
        }
    }

    /// One run of the probe's tests: what the grader would read of it.
    struct ProbeRun: Sendable, Equatable {
        /// Every `file:line` that TSan's reports of the run named, as `Race.swift:12`.
        var reportedPlaces: [String]
        /// How the test process ended.
        var termination: Termination
        /// Its output (for TSan's own fatal errors).
        var output: String
        /// Where a crash was placed, when it crashed and could be: `Trap.swift:7`.
        var crashPlace: String?
    }

    /// What the probes saw.
    struct Observations: Sendable, Equatable {
        var platform: Platform
        /// The `swift` in use and what `swift --version` printed (`nil`: it could not be run).
        var swift: String
        var versionOutput: String?
        /// Where the toolchain's TSan runtime should be, and whether it is there (`nil`: the
        /// toolchain could not say where its resources are).
        var runtime: String?
        var runtimeFound = false
        /// The symbolizer TSan is pointed at (`nil`: none found).
        var symbolizer: String?
        /// What places a crash: gdb's path (Linux), the crash reports' folder (Darwin), or `nil`.
        var crashLocator: String?
        /// The probe's build: `nil` when it was not tried; otherwise the compiler's last lines when
        /// it failed, or "" when it built.
        var buildFailure: String?
        var built = false
        /// The race run in the test process, in an exit test's child, and the trap.
        var race: ProbeRun?
        var child: ProbeRun?
        var trap: ProbeRun?
    }

    /// The probe's lines the checks look for (``DoctorProbe`` writes the files they are in).
    static let raceLine = "Race.swift:\(DoctorProbe.raceLine)"
    static let trapLine = "Trap.swift:\(DoctorProbe.trapLine)"

    /// The report on `seen`.
    static func report(_ seen: Observations) -> Report {
        Report(platform: seen.platform.description,
               lines: [toolchain(seen), runtime(seen), symbolizer(seen), build(seen), race(seen), child(seen),
                       trap(seen), crashes(seen)])
    }

    static func toolchain(_ seen: Observations) -> Line {
        let title = "Swift \(Toolchain.floor) or later"
        guard let output = seen.versionOutput, let toolchain = Toolchain(versionOutput: output) else {
            return Line(id: "toolchain", status: .failed, title: title, detail: Says.doctorNoSwift(seen.swift),
                        fix: Says.doctorInstallSwift)
        }
        let found = "\(seen.swift): Swift \(toolchain.version)"
        guard let problem = toolchain.floorProblem else {
            return Line(id: "toolchain", status: .passed, title: title, detail: found)
        }
        return Line(id: "toolchain", status: .failed, title: title, detail: found, fix: problem)
    }

    static func runtime(_ seen: Observations) -> Line {
        let title = "the Thread Sanitizer's runtime ships with the toolchain"
        guard let path = seen.runtime else {
            return Line(id: "sanitizer-runtime", status: .failed, title: title, detail: Says.doctorNoResources,
                        fix: Says.doctorInstallSwift)
        }
        return seen.runtimeFound
            ? Line(id: "sanitizer-runtime", status: .passed, title: title, detail: path)
            : Line(id: "sanitizer-runtime", status: .failed, title: title, detail: Says.doctorMissing(path),
                   fix: Says.doctorInstallSwift)
    }

    static func symbolizer(_ seen: Observations) -> Line {
        let title = "TSan's reports name files and lines"
        if let symbolizer = seen.symbolizer {
            return Line(id: "symbolizer", status: .passed, title: title, detail: "llvm-symbolizer: \(symbolizer)")
        }
        // Without it, Linux's reports carry addresses only, and Darwin's `atos` names files but not folders.
        return seen.platform.kind == .darwin
            ? Line(id: "symbolizer", status: .limited, title: title, detail: Says.doctorAtosOnly, fix: Says.doctorSymbolizerFix(seen.platform))
            : Line(id: "symbolizer", status: .failed, title: title, detail: Says.doctorNoSymbolizer, fix: Says.doctorSymbolizerFix(seen.platform))
    }

    static func build(_ seen: Observations) -> Line {
        let title = "a package builds under the Thread Sanitizer"
        if seen.built { return Line(id: "build", status: .passed, title: title, detail: Says.doctorBuilt) }
        return Line(id: "build", status: .failed, title: title,
                    detail: seen.buildFailure.map { Says.doctorBuildFailed($0) } ?? Says.doctorNotTried,
                    fix: Says.doctorBuildFix)
    }

    static func race(_ seen: Observations) -> Line {
        let title = "a data race is caught and placed at its line"
        return caught(id: "race", title: title, run: seen.race, seen: seen)
    }

    static func child(_ seen: Observations) -> Line {
        let title = "a data race in an exit test's child process is caught too"
        return caught(id: "exit-test-child", title: title, run: seen.child, seen: seen)
    }

    private static func caught(id: String, title: String, run: ProbeRun?, seen: Observations) -> Line {
        guard let run else {
            return Line(id: id, status: .failed, title: title, detail: Says.doctorNotTried, fix: seen.built ? nil : Says.doctorBuildFirst)
        }
        if run.reportedPlaces.contains(raceLine) {
            return Line(id: id, status: .passed, title: title, detail: Says.doctorCaughtAt(raceLine))
        }
        if run.output.contains(ChildSanitizer.loadedTooLate) {
            return Line(id: id, status: .failed, title: title, detail: Says.doctorLoadedTooLate, fix: Says.doctorLoadedTooLateFix)
        }
        if run.reportedPlaces.isEmpty {
            return Line(id: id, status: .failed, title: title, detail: Says.doctorNoReport(run.termination.description),
                        fix: Says.doctorNoReportFix)
        }
        return Line(id: id, status: .failed, title: title,
                    detail: Says.doctorReportedElsewhere(run.reportedPlaces.prefix(3).joined(separator: ", "), expected: raceLine),
                    fix: Says.doctorSymbolizerFix(seen.platform))
    }

    static func trap(_ seen: Observations) -> Line {
        let title = "a trap in libdispatch is graded a crash and placed at its line"
        guard let run = seen.trap else {
            return Line(id: "trap", status: .failed, title: title, detail: Says.doctorNotTried, fix: seen.built ? nil : Says.doctorBuildFirst)
        }
        guard case .signaled = run.termination else {
            return Line(id: "trap", status: .failed, title: title, detail: Says.doctorDidNotTrap(run.termination.description),
                        fix: Says.doctorReportBug)
        }
        if run.crashPlace == trapLine {
            return Line(id: "trap", status: .passed, title: title, detail: Says.doctorTrapPlaced(trapLine))
        }
        return Line(id: "trap", status: .limited, title: title, detail: Says.doctorTrapNotPlaced(run.termination.description),
                    fix: Says.doctorCrashLocatorFix(seen.platform))
    }

    static func crashes(_ seen: Observations) -> Line {
        let title = "where crashes are read from"
        guard let place = seen.crashLocator else {
            return Line(id: "crash-reports", status: .limited, title: title, detail: Says.doctorNoCrashLocator(seen.platform),
                        fix: Says.doctorCrashLocatorFix(seen.platform))
        }
        return Line(id: "crash-reports", status: .passed, title: title, detail: Says.doctorCrashLocator(place, seen.platform))
    }
}
