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
struct Platform: Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case linux
        case darwin
    }

    var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// The variable that selects a platform's paths for a whole run (`linux` or `darwin`).
    static let variable = "WORKBOOK_PLATFORM"

    /// The platform this process runs on, unless `WORKBOOK_PLATFORM` names another.
    static var host: Platform {
        if let name = ProcessInfo.processInfo.environment[variable], let kind = Kind(rawValue: name) {
            return Platform(kind)
        }
        #if canImport(Darwin)
        return Platform(.darwin)
        #else
        return Platform(.linux)
        #endif
    }

    var description: String { kind == .darwin ? "macOS" : "Linux" }

    // MARK: Starting tests

    /// How test processes are started (see ``TestLaunch``). On Linux `WORKBOOK_LAUNCH=swift-test`
    /// selects Darwin's way, which works here too.
    var launchMethod: TestLaunch.Method {
        switch kind {
        case .darwin: .swiftTest
        case .linux:
            ProcessInfo.processInfo.environment[TestLaunch.methodVariable] == TestLaunch.Method.swiftTest.rawValue ? .swiftTest : .binary
        }
    }

    /// The `llvm-symbolizer` TSan should use, so that its reports carry full paths and lines; `nil`
    /// leaves TSan to its default (on Darwin `atos`, whose frames name files without folders).
    var symbolizer: String? {
        Self.symbolizers.withLock { found in
            if let known = found[kind] { return known }
            let path = lookUpSymbolizer()
            found[kind] = .some(path)
            return path
        }
    }

    /// Symbolizers looked up so far, by platform: the lookup may start `xcrun`.
    private static let symbolizers = Locked<[Kind: String?]>([:])

    private func lookUpSymbolizer() -> String? {
        if let found = findInPath("llvm-symbolizer") { return found }
        guard kind == .darwin, let xcrun = findInPath("xcrun"),
              let result = try? ChildProcess.run(xcrun, ["--find", "llvm-symbolizer"], timeLimit: 10),
              result.termination == .exited(0) else { return nil }
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    // MARK: The toolchain

    /// The `swift` that builds and tests: on Darwin the selected toolchain's own binary
    /// (`xcrun --find swift`), not `/usr/bin/swift`, an `xcrun` shim that stays the same file
    /// whichever Xcode is selected (so a build stamp of it would not see a switch) and that would
    /// stand between the grader and the process whose crash reports it reads; elsewhere the first
    /// `swift` on PATH. Looked up once per platform.
    var swiftExecutable: String {
        Self.swifts.withLock { found in
            if let known = found[kind] { return known }
            var path = findInPath("swift") ?? "swift"
            if kind == .darwin, let xcrun = findInPath("xcrun"),
               let result = try? ChildProcess.run(xcrun, ["--find", "swift"], timeLimit: 10), result.termination == .exited(0) {
                let real = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                if FileManager.default.isExecutableFile(atPath: real) { path = real }
            }
            found[kind] = path
            return path
        }
    }

    private static let swifts = Locked<[Kind: String]>([:])

    /// The file a build of the tests leaves in `scratchPath`, which a build stamp describes: the
    /// test executable on Linux; on Darwin the binary inside the `.xctest` bundle (the bundle is a
    /// folder, whose own size and time do not change when the binary in it does).
    func testProduct(in scratchPath: URL) -> URL {
        let bundle = TestLaunch.testBinary(in: scratchPath)
        return kind == .darwin ? bundle.appendingPathComponent("Contents/MacOS/\(TestLaunch.testProductName)") : bundle
    }

    // MARK: The Thread Sanitizer

    /// What the grader adds to TSan's options on this platform, beyond ``SanitizerSettings``: on
    /// Darwin, the runtime kept in `DYLD_INSERT_LIBRARIES` for the exit tests' children (see
    /// `ChildSanitizer` in WorkbookWire).
    var sanitizerOptions: [String] {
        kind == .darwin ? [ChildSanitizer.keepRuntimeForChildren] : []
    }

    /// Where the toolchain keeps TSan's runtime, under `runtimeResourcePath` (`swift
    /// -print-target-info`'s `paths.runtimeResourcePath`, `<toolchain>/usr/lib/swift`): on Darwin the
    /// dylib SwiftPM inserts (`UserToolchain.runtimeLibrary(for:)`:
    /// `lib/swift/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib`), on Linux the static library
    /// the compiler links in (`clang/lib/linux/libclang_rt.tsan-<arch>.a`).
    func sanitizerRuntime(resourcePath: String, arch: String) -> String {
        switch kind {
        case .darwin: "\(resourcePath)/clang/lib/darwin/libclang_rt.tsan_osx_dynamic.dylib"
        case .linux: "\(resourcePath)/clang/lib/linux/libclang_rt.tsan-\(arch).a"
        }
    }

    // MARK: Crashes

    /// How a crashed test is placed at the learner's line.
    enum CrashLocator: Sendable, Equatable {
        /// Run the crashed test again under gdb (Linux, when gdb is installed).
        case debugger(String)
        /// Read the crash report the system wrote into this folder (Darwin).
        case crashReports(URL)
        /// Nothing here can place it.
        case none
    }

    var crashLocator: CrashLocator {
        switch kind {
        case .linux:
            return findInPath("gdb").map(CrashLocator.debugger) ?? .none
        case .darwin:
            let home = FileManager.default.homeDirectoryForCurrentUser
            return .crashReports(home.appendingPathComponent("Library/Logs/DiagnosticReports"))
        }
    }

    /// Whether a crash in an exit test's child can be placed here: on Darwin Swift Testing turns
    /// crash reports off in those children (`ExitTest.swift`, `_disableCrashReporting`: no corpse
    /// notification), so there is no report to look for.
    var placesCrashesInExitTestChildren: Bool { kind == .linux }

    // MARK: Processes

    /// Live processes whose command line mentions `text` (a build folder, say).
    func processes(mentioning text: String) -> [Int32] {
        switch kind {
        case .linux:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry in
                guard let pid = Int32(entry), pid != getpid(),
                      let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
                let command = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
                return command.contains(text) ? pid : nil
            }
        case .darwin:
            guard let result = try? ChildProcess.run("ps", ["-A", "-o", "pid=,args="], timeLimit: 10) else { return [] }
            return Self.processes(inPSOutput: result.output, mentioning: text).filter { $0 != getpid() }
        }
    }

    /// A live process's command line, its arguments joined by spaces ("" when it cannot be read).
    func commandLine(of pid: Int32) -> String {
        switch kind {
        case .linux:
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
            return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        case .darwin:
            return (try? ChildProcess.run("ps", ["-o", "args=", "-p", String(pid)], timeLimit: 10))?.output ?? ""
        }
    }

    /// The pids of `ps -A -o pid=,args=` lines whose command mentions `text`; `ps` itself aside.
    static func processes(inPSOutput output: String, mentioning text: String) -> [Int32] {
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
    var toolchainVariables: [String] {
        kind == .darwin ? ["DEVELOPER_DIR", "TOOLCHAINS", "SDKROOT"] : []
    }

    /// Whether `workbook grade` can isolate a submission's network and file system here: Linux with
    /// unprivileged user namespaces (probed once). Darwin has no such namespaces.
    var canIsolateSubmissions: Bool {
        kind == .linux && Self.userNamespacesWork
    }

    private static let userNamespacesWork: Bool = {
        guard let probe = try? ChildProcess.run("unshare", ["-rnm", "true"], timeLimit: 10) else { return false }
        return probe.termination == .exited(0)
    }()
}
