import Foundation
import Testing
@testable import WorkbookCore
@testable import WorkbookEngine

/// The tool's own variables, read once into ``WorkbookEnvironment``: what each value means.
struct WorkbookEnvironmentTests {
    @Test func readsEachVariable() {
        let environment = WorkbookEnvironment([
            "WORKBOOK_PLATFORM": "darwin", "WORKBOOK_LAUNCH": "swift-test", "WORKBOOK_CHECK_SCRATCH": "/tmp/s",
            "WORKBOOK_KEEP_ARTIFACTS": "/tmp/k", "WORKBOOK_ROOT": "/tmp/r", "NO_COLOR": "1", "COLUMNS": "72",
            "PAGER": "more", "PATH": "/opt/bin", "WORKBOOK_RELAUNCHED": "1",
        ])
        #expect(environment.platform == .darwin)
        #expect(environment.launch == TestLaunch.Method.swiftTest.rawValue)
        #expect(environment.checkScratch?.path == "/tmp/s")
        #expect(environment.keepArtifacts?.path == "/tmp/k")
        #expect(environment.root?.path == "/tmp/r")
        #expect(environment.noColor)
        #expect(environment.columns == 72)
        #expect(environment.pager == "more")
        #expect(environment.path == "/opt/bin")
        #expect(environment.relaunched)
        #expect(Platform(environment).kind == .darwin)
    }

    @Test func emptyCountsAsUnset() {
        let environment = WorkbookEnvironment([
            "WORKBOOK_PLATFORM": "", "WORKBOOK_CHECK_SCRATCH": "", "WORKBOOK_KEEP_ARTIFACTS": "", "NO_COLOR": "", "PAGER": "",
            "WORKBOOK_RELAUNCHED": "",
        ])
        #expect(environment.platform == nil)
        #expect(environment.checkScratch == nil)
        #expect(environment.keepArtifacts == nil)
        #expect(!environment.noColor)
        #expect(environment.pager == nil)
        #expect(!environment.relaunched)
        #expect(environment.path == "/usr/bin:/bin")
        #expect(Style.automatic(in: WorkbookEnvironment(["NO_COLOR": "1"])).color == false)
    }

    @Test("the launch method follows from the platform value alone: its kind and the launch its environment asked for")
    func launchMethodFromThePlatformValue() {
        #expect(Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "linux", "WORKBOOK_LAUNCH": "swift-test"])).launchMethod == .swiftTest)
        #expect(Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "linux", "WORKBOOK_LAUNCH": "binary"])).launchMethod == .binary)
        #expect(Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "linux"])).launchMethod == .binary)
        #expect(Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "darwin"])).launchMethod == .swiftTest)
        // A platform named in code does not look at this process's environment.
        #expect(Platform(.linux).launchMethod == .binary)
        #expect(Platform(.darwin).launchMethod == .swiftTest)
    }

    @Test("the tools are looked for on the PATH of the platform's environment, each PATH remembered apart")
    func toolsFoundOnThePlatformsPath() throws {
        let folders = try (0..<2).map { _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-path-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        let tool = folders[1].appendingPathComponent("swift")
        try "#!/bin/sh\n".write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        // Not executable: not a tool.
        try "".write(to: folders[0].appendingPathComponent("gdb"), atomically: true, encoding: .utf8)

        let both = Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "linux", "PATH": "\(folders[0].path):\(folders[1].path)"]))
        #expect(both.searchPath == "\(folders[0].path):\(folders[1].path)")
        #expect(both.swiftExecutable == tool.path)
        #expect(both.executable("gdb") == nil)
        #expect(both.crashLocator == .none, "no gdb on this PATH: crashes are not located")
        let first = Platform(WorkbookEnvironment(["WORKBOOK_PLATFORM": "linux", "PATH": folders[0].path]))
        #expect(first.executable("swift") == nil)
        #expect(first.swiftExecutable == "swift", "not found: the bare name")
        // A platform named in code looks in the PATH this process started with.
        #expect(Platform(.linux).searchPath == nil)
    }

    @Test func namesMatchTheirOtherDeclarations() {
        #expect(WorkbookEnvironment.Name.platform == Platform.variable)
        #expect(TestLaunch.methodVariable == WorkbookEnvironment.Name.launch)
    }
}
