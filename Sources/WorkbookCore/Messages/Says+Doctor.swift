import Foundation
import WorkbookWire

/// What `workbook doctor` says: what it found on each line, and the fix.
extension Says {
    package static func doctorNoSwift(_ swift: String) -> String {
        "`\(swift) --version` did not run"
    }

    package static let doctorInstallSwift =
        "Install Xcode \(Toolchain.floorXcode) or later on a Mac (and select it: `sudo xcode-select -s /Applications/Xcode.app`), or a Swift \(Toolchain.floor)+ toolchain from swift.org on Linux, and put its `swift` first on PATH."

    package static let doctorNoResources = "`swift -print-target-info` did not say where the toolchain keeps its runtime libraries"

    package static func doctorMissing(_ path: String) -> String { "not found: \(path)" }

    package static let doctorAtosOnly =
        "no llvm-symbolizer found (PATH, `xcrun --find llvm-symbolizer`): TSan falls back to `atos`, whose frames name a file without its folder, or no file at all"

    package static let doctorNoSymbolizer =
        "no llvm-symbolizer on PATH: TSan's reports would carry addresses only, with no file or line to point at"

    package static func doctorSymbolizerFix(_ platform: Platform) -> String {
        platform.kind == .darwin
            ? "Grading still works from file names; to get full paths, make `xcrun --find llvm-symbolizer` find one (a swift.org toolchain selected with TOOLCHAINS has it)."
            : "Put the toolchain's `usr/bin` on PATH: swift.org's Linux toolchains ship `llvm-symbolizer` next to `swift`."
    }

    package static let doctorBuilt = "a probe package of three files built with `swift build --build-tests --sanitize=thread`"

    package static func doctorBuildFailed(_ tail: String) -> String { "the probe package did not build:\n\(tail)" }

    package static let doctorNotTried = "not tried: an earlier line failed"

    package static let doctorBuildFix =
        "Run `swift build --build-tests --sanitize=thread` in the workbook to see the whole error; a toolchain without the Thread Sanitizer says \"unsupported option '-sanitize=thread'\"."

    package static let doctorBuildFirst = "Fix the lines above first."

    package static func doctorCaughtAt(_ place: String) -> String { "reported by TSan at \(place), where the probe races on purpose" }

    package static let doctorLoadedTooLate =
        "TSan stopped the process before it ran: \"\(ChildSanitizer.loadedTooLate)\" (the runtime was loaded after the process started, with the test bundle, instead of being inserted at its launch)"

    package static let doctorLoadedTooLateFix =
        "On a Mac, tests graded for races must run through `swift test --sanitize=thread` (which inserts the runtime) with `\(ChildSanitizer.keepRuntimeForChildren)` in TSAN_OPTIONS for exit tests' children — `workbook check` sets both. If you see this under `workbook check`, please report it with `workbook doctor --json`."

    package static func doctorNoReport(_ ending: String) -> String { "no report at all (the test process: \(ending))" }

    package static let doctorNoReportFix =
        "The tests ran without the Thread Sanitizer. Check that the build above used `--sanitize=thread`, and run `workbook doctor --json` for the details."

    package static func doctorReportedElsewhere(_ places: String, expected: String) -> String {
        "TSan reported, but not at \(expected) (its frames named \(places.isEmpty ? "no line" : places))"
    }

    package static func doctorDidNotTrap(_ ending: String) -> String {
        "the probe's `sync` onto its own queue did not stop the test process (\(ending))"
    }

    package static let doctorReportBug = "This is not what libdispatch does on any platform the workbook knows; please report it with `workbook doctor --json`."

    package static func doctorTrapPlaced(_ place: String) -> String { "the trap was placed at \(place)" }

    package static func doctorTrapNotPlaced(_ ending: String) -> String {
        "graded a crash (\(ending)), but not placed at its line"
    }

    package static func doctorCrashLocatorFix(_ platform: Platform) -> String {
        platform.kind == .darwin
            ? "Crashes are placed from the reports macOS writes into ~/Library/Logs/DiagnosticReports; check that crash reporting is on (Console shows them)."
            : "Install gdb (`sudo apt-get install gdb`, or your distribution's package): the grader runs a crashed test again under it to find your line."
    }

    package static func doctorNoCrashLocator(_ platform: Platform) -> String {
        platform.kind == .darwin ? "no crash reports folder" : "no gdb on PATH: a crash is graded, but not placed at your line"
    }

    package static func doctorCrashLocator(_ place: String, _ platform: Platform) -> String {
        platform.kind == .darwin
            ? "the crash reports macOS writes into \(place) (none for an exit test's child: Swift Testing turns them off there)"
            : "gdb (\(place)) runs a crashed test again to find its line"
    }
}
