import Foundation
import Testing
@testable import workbook
import WorkbookCore
import WorkbookEngine
import WorkbookMaintainer

/// `workbook new <chapter> <title>` and `selftest --static`, as the command line reads them. What
/// they write and find is the engine's (StaticCheckTests); here, what they take and how they end.
@Suite("workbook new and selftest --static on the command line")
struct NewCommandTests {
    @Test("new takes a chapter and a title, then --id and --file; its usage names both")
    func newArguments() throws {
        let parsed = try ParsedArguments<Command.NewFlags>(["5", "A bounded buffer", "--file", "BoundedBuffer.swift", "--id=5.9"], for: .new)
        #expect(parsed.positional == ["5", "A bounded buffer"])
        #expect(parsed[\.exerciseFile] == "BoundedBuffer.swift" && parsed[\.exerciseID] == "5.9")
        #expect(Command.new.usage.hasSuffix("new <chapter> <title> [--id N.M] [--file NAME.swift]"))
        for bad in [[], ["5"], ["5", "A", "B"], ["5", "A", "--file"], ["5", "A", "--bogus"]] {
            #expect(throws: UsageError.self, "\(bad)") { try ParsedArguments<Command.NewFlags>(bad, for: .new) }
        }
        do {
            _ = try ParsedArguments<Command.NewFlags>(["5"], for: .new)
        } catch let error as UsageError {
            #expect(error.message == "name chapter and title, e.g. \(Says.command("new 5 \"A bounded buffer\"")).")
        }
    }

    @Test("exit status: 2 for a bad command line or a chapter that does not exist (nothing written); --static is 0 on this workbook")
    func exitStatus() {
        #expect(CommandLine.run(["new", "5"]) == 2)
        #expect(CommandLine.run(["new", "99", "A bounded buffer"]) == 2)
        #expect(CommandLine.run(["selftest", "--static", "--runs", "0"]) == 2)
        #expect(CommandLine.run(["selftest", "--static", "99"]) == 2)
        #expect(CommandLine.run(["selftest", "--static"]) == 0)
    }

    @Test("selftest's help offers --static, and new's help says it never writes over a file")
    func help() {
        #expect(Command.selftest.help.contains("--static"))
        #expect(Command.new.help.contains("Never writes over a file"))
        #expect(!Command.new.buildsChapters && Command.new.audience == .workbook)
    }
}
