import Foundation
import WorkbookCore

// What the platform decides by looking at this machine: the tools it finds, the processes it lists,
// what it probes. The pure differences (names, paths, sentences) are ``Platform``'s own, in WorkbookCore.
extension Platform {
    /// The platform `environment` names, else the one this process runs on, with the launch it asks
    /// for and the PATH its tools are found on.
    package init(_ environment: WorkbookEnvironment) {
        #if canImport(Darwin)
        self.init(environment.platform ?? .darwin, launchAskedFor: environment.launch, searchPath: environment.path)
        #else
        self.init(environment.platform ?? .linux, launchAskedFor: environment.launch, searchPath: environment.path)
        #endif
    }

    /// The first executable called `name` on this platform's ``searchPath`` (the PATH this process
    /// started with for a platform named in code), or `nil`; found once and remembered.
    func executable(_ name: String) -> String? {
        Executables.find(name, on: searchPath ?? WorkbookEnvironment.process.path)
    }

    /// How test processes are started (see ``TestLaunch``), decided here alone from this value: on
    /// Linux `WORKBOOK_LAUNCH=swift-test` (``launchAskedFor``) selects Darwin's way, which works here too.
    var launchMethod: TestLaunch.Method {
        switch kind {
        case .darwin: .swiftTest
        case .linux: launchAskedFor == TestLaunch.Method.swiftTest.rawValue ? .swiftTest : .binary
        }
    }

    // MARK: The toolchain

    /// The `llvm-symbolizer` TSan should use, so that its reports carry full paths and lines; `nil`
    /// leaves TSan to its default (on Darwin `atos`, whose frames name files without folders).
    var symbolizer: String? {
        Self.symbolizers.value(for: lookup, lookUpSymbolizer)
    }

    /// Symbolizers looked up so far, by platform and search path: the lookup may start `xcrun`.
    private static let symbolizers = Remembered<Lookup, String?>()

    private func lookUpSymbolizer() -> String? {
        if let found = executable("llvm-symbolizer") { return found }
        guard kind == .darwin, let xcrun = executable("xcrun"),
              let result = try? ChildProcess.run(xcrun, ["--find", "llvm-symbolizer"], timeLimit: 10),
              result.termination == .exited(0) else { return nil }
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The `swift` that builds and tests: on Darwin the selected toolchain's own binary
    /// (`xcrun --find swift`), not `/usr/bin/swift`, an `xcrun` shim that stays the same file
    /// whichever Xcode is selected (so a build stamp of it would not see a switch) and that would
    /// stand between the grader and the process whose crash reports it reads; elsewhere the first
    /// `swift` on the platform's search path. Looked up once per platform and search path.
    var swiftExecutable: String {
        Self.swifts.value(for: lookup) {
            var path = executable("swift") ?? "swift"
            if kind == .darwin, let xcrun = executable("xcrun"),
               let result = try? ChildProcess.run(xcrun, ["--find", "swift"], timeLimit: 10), result.termination == .exited(0) {
                let real = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                if FileManager.default.isExecutableFile(atPath: real) { path = real }
            }
            return path
        }
    }

    private static let swifts = Remembered<Lookup, String>()

    /// What a lookup remembered per platform depends on: its kind and where it looks.
    struct Lookup: Hashable {
        var kind: Kind
        var searchPath: String?
    }

    var lookup: Lookup { Lookup(kind: kind, searchPath: searchPath) }

    // MARK: Crashes

    package var crashLocator: CrashLocator {
        switch kind {
        case .linux:
            return executable("gdb").map(CrashLocator.debugger) ?? .none
        case .darwin:
            let home = FileManager.default.homeDirectoryForCurrentUser
            return .crashReports(home.appendingPathComponent("Library/Logs/DiagnosticReports"))
        }
    }

    // MARK: Processes

    /// Live processes whose command line mentions `text` (a build folder, say).
    package func processes(mentioning text: String) -> [Int32] {
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
    package func commandLine(of pid: Int32) -> String {
        switch kind {
        case .linux:
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
            return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        case .darwin:
            return (try? ChildProcess.run("ps", ["-o", "args=", "-p", String(pid)], timeLimit: 10))?.output ?? ""
        }
    }

    // MARK: The classroom sandbox

    /// Whether `workbook grade` can isolate a submission's network and file system here: Linux with
    /// unprivileged user namespaces (probed once). Darwin has no such namespaces.
    package var canIsolateSubmissions: Bool {
        kind == .linux && Self.userNamespacesWork
    }

    private static let userNamespacesWork: Bool = {
        guard let probe = try? ChildProcess.run("unshare", ["-rnm", "true"], timeLimit: 10) else { return false }
        return probe.termination == .exited(0)
    }()
}
