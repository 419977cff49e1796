import Foundation
import WorkbookWire

/// Everything the grader does differently on Linux and on Darwin (macOS), in one place.
///
/// Outside this type only the operating system's own calls differ (spawn attributes, the terminal's
/// size). Every other difference is a property here, so that the Darwin paths run on Linux too:
/// the unit tests grade recorded Darwin output through `Platform(.darwin)`, and
/// `WORKBOOK_PLATFORM=darwin` makes a whole run take the Darwin paths that can run here.
///
/// | what | Linux | Darwin |
/// |---|---|---|
/// | tests started by | the test executable | `swift test --skip-build` (an `.xctest` bundle needs a runner) |
/// | TSan symbolizes with | `llvm-symbolizer` on PATH: full paths, `file:line:column` | `llvm-symbolizer` when found (PATH, then `xcrun --find`), else `atos`: file names only, `file:line`, often `<null>` |
/// | a trap's message | compiled out: the process just traps | in the crash report (`DISPATCH_CLIENT_CRASH`, libdispatch `src/internal.h`), not the output |
/// | a crash is located by | running the test again under gdb | the crash report the system writes (`~/Library/Logs/DiagnosticReports/*.ips`) |
/// | processes are listed from | `/proc` | `ps` |
/// | the classroom sandbox | user, network and mount namespaces (`unshare -rnm`) | none (limits and a bare environment only) |
package struct Platform: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable, CaseIterable {
        case linux
        case darwin
    }

    package var kind: Kind
    /// `WORKBOOK_LAUNCH`'s value when this platform was read from an environment
    /// (``WorkbookEnvironment/launch``): on Linux, `swift-test` starts test processes Darwin's way.
    /// `nil` for a platform named in code, whatever this process's environment says.
    package var launchAskedFor: String?
    /// `PATH`'s value when this platform was read from an environment (``WorkbookEnvironment/path``):
    /// where the tools the engine runs by name are looked for. `nil` for a platform named in code,
    /// which looks in the PATH this process started with.
    package var searchPath: String?

    package init(_ kind: Kind, launchAskedFor: String? = nil, searchPath: String? = nil) {
        self.kind = kind
        self.launchAskedFor = launchAskedFor
        self.searchPath = searchPath
    }

    /// The variable that selects a platform's paths for a whole run (`linux` or `darwin`).
    package static let variable = "WORKBOOK_PLATFORM"

    package var description: String { kind == .darwin ? "macOS" : "Linux" }

    // MARK: The Thread Sanitizer

    /// What the grader adds to TSan's options on this platform, beyond ``SanitizerSettings``: on
    /// Darwin, the runtime kept in `DYLD_INSERT_LIBRARIES` for the exit tests' children (see
    /// `ChildSanitizer` in WorkbookWire).
    package var sanitizerOptions: [String] {
        kind == .darwin ? [ChildSanitizer.keepRuntimeForChildren] : []
    }

    /// Where the toolchain keeps TSan's runtime, under `runtimeResourcePath` (`swift
    /// -print-target-info`'s `paths.runtimeResourcePath`, `<toolchain>/usr/lib/swift`): on Darwin the
    /// dylib SwiftPM inserts (`UserToolchain.runtimeLibrary(for:)`:
    /// `lib/swift/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib`), on Linux the static library
    /// the compiler links in (`clang/lib/linux/libclang_rt.tsan-<arch>.a`).
    package func sanitizerRuntime(resourcePath: String, arch: String) -> String {
        switch kind {
        case .darwin: "\(resourcePath)/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib"
        case .linux: "\(resourcePath)/clang/lib/linux/libclang_rt.tsan-\(arch).a"
        }
    }

    // MARK: Crashes

    /// How a crashed test is placed at the learner's line.
    package enum CrashLocator: Sendable, Equatable {
        /// Run the crashed test again under gdb (Linux, when gdb is installed).
        case debugger(String)
        /// Read the crash report the system wrote into this folder (Darwin).
        case crashReports(URL)
        /// Nothing here can place it.
        case none
    }

    /// Whether a crash in an exit test's child can be placed here: on Darwin Swift Testing turns
    /// crash reports off in those children (`ExitTest.swift`, `_disableCrashReporting`: no corpse
    /// notification), so there is no report to look for.
    package var placesCrashesInExitTestChildren: Bool { kind == .linux }

    // MARK: Processes

    /// The pids of `ps -A -o pid=,args=` lines whose command mentions `text`; `ps` itself aside.
    package static func processes(inPSOutput output: String, mentioning text: String) -> [Int32] {
        output.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let space = trimmed.firstIndex(of: " "), let pid = Int32(trimmed[..<space]) else { return nil }
            let command = trimmed[trimmed.index(after: space)...]
            return command.contains(text) && !command.hasPrefix("ps ") ? pid : nil
        }
    }

    // MARK: The classroom sandbox

    /// The variables that choose the toolchain, which a sandbox's bare environment keeps: on Darwin
    /// `xcrun` (and so `swift`) finds the selected Xcode through `DEVELOPER_DIR`, a toolchain through
    /// `TOOLCHAINS`, the SDK through `SDKROOT` (xcrun(1)); on Linux `swift` is the one on PATH.
    package var toolchainVariables: [String] {
        kind == .darwin ? ["DEVELOPER_DIR", "TOOLCHAINS", "SDKROOT"] : []
    }
}
