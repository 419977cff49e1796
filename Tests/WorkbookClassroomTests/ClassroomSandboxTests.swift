import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: the sandbox — its network, proved against a listener on 127.0.0.1, and its environment")
struct ClassroomSandboxTests {
    /// bash, whose `/dev/tcp` paths open a TCP connection with no other tool.
    static let bash = ClassroomFixture.program("bash")

    /// A script that tries to connect to 127.0.0.1 at `port` and prints `open` or `closed`.
    static func connect(_ port: UInt16) -> String {
        "if exec 3<>/dev/tcp/127.0.0.1/\(port); then echo open; else echo closed; fi"
    }

    @Test("the drill's listener: reached from this process and counted; closed once stopped")
    func listener() throws {
        let listener = try LoopbackListener()
        #expect(listener.port > 0)
        #expect(listener.connections == 0)
        #expect(listener.probe())
        #expect(listener.connections == 1)
        listener.stop()
        #expect(!listener.probe(), "nothing listens any more")
    }

    @Test("from inside the sandbox the listener cannot be reached; from a plain child process it can",
          .enabled(if: Sandbox.isolation(on: Platform(.process)) == .namespaces && bash != nil, "needs user namespaces and bash"))
    func isolated() throws {
        let bash = try #require(Self.bash)
        let listener = try LoopbackListener()
        defer { listener.stop() }
        let outside = try ChildProcess.run(bash, ["-c", Self.connect(listener.port)], timeLimit: 30)
        #expect(outside.output.trimmingCharacters(in: .whitespacesAndNewlines) == "open", "the check can fail: \(outside.output)")
        #expect(Self.settle(on: 1, listener), "the listener counted the connection from outside")

        let folder = try ClassroomFixture.scratch("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.txt")
        let command = try Sandbox(folder: folder, platform: Platform(.process)).command("bash", ["-c", Self.connect(listener.port)], environment: [:], stdoutFile: out)
        let run = try ChildProcess.run(command.executable, command.arguments, timeLimit: 60)
        #expect(run.termination == .exited(0), "\(run.output)")
        #expect(try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "closed")
        #expect(!Self.settle(on: 2, listener), "no connection arrived from the sandbox")
    }

    /// Whether the listener's count reaches `count` within two seconds (it accepts on a queue of its own).
    static func settle(on count: Int, _ listener: LoopbackListener) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while listener.connections < count && Date() < deadline { usleep(10_000) }
        return listener.connections >= count
    }

    @Test("no test source names a network host but the loopback: in inet_addr/inet_pton/inet_aton, /dev/tcp/ or a URL")
    func loopbackOnly() throws {
        let tests = Fixture.packageRoot.appendingPathComponent(Layout.testsFolder)
        let walker = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        let hosts = /inet_(?:addr|pton|aton)\((?:AF_INET6?,\s*)?"([^"]*)"|\/dev\/tcp\/([^\/"\s]+)|(?:https?|wss?|ftp|tcp|udp):\/\/([^\/"\s:)`]+)/
        var found: [String] = []
        var scanned = 0
        for case let url as URL in walker where url.pathExtension == "swift" {
            scanned += 1
            for match in ((try? String(contentsOf: url, encoding: .utf8)) ?? "").matches(of: hosts) {
                let host = String(match.1 ?? match.2 ?? match.3 ?? "")
                if !(host.hasPrefix("127.") || host == "::1" || host == "[::1]" || host == "localhost") {
                    found.append("\(url.lastPathComponent): \(match.0)")
                }
            }
        }
        #expect(scanned > 50, "the tests were found")
        #expect(found.isEmpty, "\(found)")
    }

    @Test("the classroom sandbox's bare environment keeps the Xcode a Mac selected (DEVELOPER_DIR), and nothing else of the teacher's")
    func sandboxKeepsTheToolchain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-sandbox-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        setenv("DEVELOPER_DIR", "/Applications/Xcode_26.4.app/Contents/Developer", 1)
        setenv("WORKBOOK_TEACHER_SECRET", "s3cret", 1)
        defer { unsetenv("DEVELOPER_DIR"); unsetenv("WORKBOOK_TEACHER_SECRET") }
        let darwin = Sandbox(folder: folder, platform: Platform(.darwin))
        let mac = try darwin.command("swift", ["--version"], environment: [:], stdoutFile: folder.appendingPathComponent("out")).arguments
        #expect(mac.contains("DEVELOPER_DIR=/Applications/Xcode_26.4.app/Contents/Developer"))
        #expect(!mac.contains { $0.contains("s3cret") })
        let linux = Sandbox(folder: folder, platform: Platform(.linux))
        let plain = try linux.command("swift", ["--version"], environment: [:], stdoutFile: folder.appendingPathComponent("out")).arguments
        #expect(!plain.contains { $0.hasPrefix("DEVELOPER_DIR=") } && !plain.contains { $0.contains("s3cret") })
    }
}
