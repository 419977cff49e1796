import Foundation
import Testing
@testable import workbook
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
import WorkbookMaintainer

@Suite("The command line: declared once, checked on parsing")
struct CommandLineTests {
    @Test("every command's help is generated from its declaration: usage, every flag with its help, and -h")
    func help() {
        for command in Command.all {
            let help = command.help
            #expect(help.hasPrefix("USAGE: " + CommandForm.current.line(command.name.rawValue)), "\(command.name)")
            for flag in command.flags {
                #expect(help.contains(flag.synopsis), "\(command.name): \(flag.name) missing from its help")
                #expect(help.contains(String(flag.help.prefix(20))), "\(command.name): \(flag.name)'s help missing")
            }
            #expect(help.contains("-h, --help"))
            #expect(Command.overview(in: Setting()).contains(command.abstract), "\(command.name) missing from the overview")
        }
        #expect(Set(Command.all.map(\.name)).count == Command.all.count, "two commands share a name")
    }

    @Test("each command name leads to the command declared with it, and only the building commands need a toolchain")
    func namesLeadToTheirCommands() {
        for name in Command.Name.allCases {
            #expect(name.command.name == name, "\(name)")
            #expect(Command.named(name.rawValue)?.name == name)
        }
        #expect(Command.all.filter(\.buildsChapters).map(\.name) == [.check, .explain, .watch, .grade, .selftest])
        #expect(toolchainProblem(for: .hint, toolchain: nil) == nil)
    }

    @Test("no command declares a flag twice")
    func uniqueFlags() {
        for command in Command.all {
            let names = (command.flags + [AnyFlag(Command.helpFlag)]).map(\.name)
            #expect(Set(names).count == names.count, "\(command.name): \(names)")
        }
    }

    /// A command reads its flags through key paths into the flag set it declares (`arguments[\.runs]`),
    /// so reading a flag it did not declare, or reading a flag as another kind, does not compile; and
    /// `ParsedArguments<Flags>` is made only for the command whose set `Flags` is. What is left to hold
    /// at run time: that reflection finds every property of a set as a flag, so that the parser and
    /// `--help` know every flag the command can read, and that each one, given a value of its kind,
    /// is taken.
    @Test("every flag a command can read is one it declares: its flag set's every property is a flag the parser and help know")
    func readFlagsAreDeclared() throws {
        for command in Command.all {
            let properties = Mirror(reflecting: command.flagSet.init()).children
            #expect(properties.count == command.flags.count, "\(command.name): a property of \(command.flagSet) that is not a flag")
            let positional: [String] = switch command.arguments {
            case .none, .any: []
            case .one: ["1.1"]
            case let .these(names, _): names
            }
            for flag in command.flags {
                #expect(command.usage.contains("[\(flag.synopsis)]") && command.help.contains(flag.synopsis), "\(command.name): \(flag.name)")
                let given = flag.takesValue ? [flag.name, flag.synopsis.hasSuffix(" SECONDS") ? "0.5" : "2"] : [flag.name]
                #expect(throws: Never.self, "\(command.name) \(given)") { _ = try command.parse(positional + given) }
            }
        }
        #expect(Command.ExplainFlags().runs.name == Command.CheckFlags().runs.name, "explain's --runs is check's")
    }

    @Test("flags read as their types: a switch as Bool, a count as Int, seconds as Double, a path or text as String?")
    func typedValues() throws {
        let check = try ParsedArguments<Command.CheckFlags>(["1.1", "--runs", "3", "--json", "2", "--junit=out.xml"], for: .check)
        let runs: Int = check[\.runs], json: Bool = check[\.json], junit: String? = check[\.junit]
        #expect(runs == 3 && json && !check[\.verbose] && junit == "out.xml")
        let interval: Double = try ParsedArguments<Command.WatchFlags>([], for: .watch)[\.interval]
        #expect(interval == 1)
        let selftest = try ParsedArguments<Command.SelftestFlags>(["--static"], for: .selftest)
        #expect(selftest[\.staticOnly] && selftest[\.suiteRuns] == 5 && selftest[\.corpusRuns] == 1 && selftest[\.entries] == nil)
        #expect(try ParsedArguments<Command.ExportFlags>(["--hints", "none"], for: .export)[\.hints] == "none")
    }

    @Test("a wrongly kinded or missing value, a value given to a switch, an unknown flag: the same sentence as always, and exit status 2")
    func wronglyKinded() {
        let cases: [(arguments: [String], message: String)] = [
            (["check", "--runs", "x"], "--runs takes a whole number above zero, not 'x'."),
            (["check", "--runs", "0"], "--runs takes a whole number above zero, not '0'."),
            (["selftest", "--corpus-runs", "-1"], "--corpus-runs takes a whole number above zero, not '-1'."),
            (["watch", "--interval", "abc"], "--interval takes a number of seconds above zero, not 'abc'."),
            (["watch", "--interval=inf"], "--interval takes a number of seconds above zero, not 'inf'."),
            (["check", "--runs"], "--runs needs a value: --runs N."),
            (["check", "--junit="], "--junit needs a value: --junit PATH."),
            (["grade", "--shard"], "--shard needs a value: --shard K/N."),
            (["export", "--student", ""], "--student needs a value: --student PATH."),
            (["check", "--json=yes"], "--json takes no value."),
            (["check", "--bogus"], "unknown option '--bogus'."),
        ]
        for (arguments, message) in cases {
            let command = Command.named(arguments[0])!
            #expect(throws: UsageError.self, "\(arguments)") { _ = try command.parse(Array(arguments.dropFirst())) }
            do {
                _ = try command.parse(Array(arguments.dropFirst()))
            } catch let error as UsageError {
                #expect(error.message == message, "\(arguments)")
            } catch {
                Issue.record("\(arguments): \(error)")
            }
            #expect(CommandLine.run(arguments) == 2, "\(arguments)")
        }
    }

    @Test("values are checked when parsed: counts, seconds, a missing value, an unknown flag")
    func values() throws {
        let check = try ParsedArguments<Command.CheckFlags>(["1.1", "--runs", "3", "--json", "2"], for: .check)
        #expect(check.positional == ["1.1", "2"])
        #expect(check[\.runs] == 3)
        #expect(check[\.json] && !check[\.verbose])
        #expect(try ParsedArguments<Command.CheckFlags>(["--runs=4"], for: .check)[\.runs] == 4)
        #expect(try ParsedArguments<Command.CheckFlags>([], for: .check)[\.runs] == 1)
        #expect(try ParsedArguments<Command.WatchFlags>([], for: .watch)[\.interval] == 1)
        #expect(try ParsedArguments<Command.WatchFlags>(["--interval", "0.5"], for: .watch)[\.interval] == 0.5)

        for bad in [["--runs", "0"], ["--runs", "abc"], ["--runs"], ["--junit"], ["--bogus"], ["--json=yes"]] {
            #expect(throws: UsageError.self, "\(bad)") { try ParsedArguments<Command.CheckFlags>(bad, for: .check) }
        }
        for bad in [["--interval", "abc"], ["--interval", "-1"], ["--interval", "inf"], ["now"]] {
            #expect(throws: UsageError.self, "\(bad)") { try ParsedArguments<Command.WatchFlags>(bad, for: .watch) }
        }
    }

    @Test("positional arguments: exactly one where one is named, none where none are taken")
    func positional() throws {
        #expect(throws: UsageError.self) { try ParsedArguments<Command.HintFlags>([], for: .hint) }
        #expect(throws: UsageError.self) { try ParsedArguments<Command.HintFlags>(["1.1", "1.2"], for: .hint) }
        #expect(try ParsedArguments<Command.HintFlags>(["1.1", "--reset"], for: .hint).only == "1.1")
        #expect(throws: UsageError.self) { try ParsedArguments<Command.NoFlags>(["1"], for: .progress) }
        do {
            _ = try ParsedArguments<Command.HintFlags>([], for: .hint)
        } catch let error as UsageError {
            #expect(error.message.contains("workbook hint 1.1"))
        }
    }

    @Test("exit status 2 for a bad command line, an unknown command or an unknown name; 0 for help")
    func exitStatus() {
        #expect(CommandLine.run(["--help"]) == 0)
        #expect(CommandLine.run(["check", "--help"]) == 0)
        #expect(CommandLine.run(["frobnicate"]) == 2)
        #expect(CommandLine.run(["check", "--runs", "x"]) == 2)
        #expect(CommandLine.run(["watch", "--interval", "abc"]) == 2)
    }

    @Test("names: one exercise where one is needed (a chapter is said to be several), a chapter or an exercise's chapter for a lesson; each miss is bad input that lists what would do")
    func names() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let workbook = try Workbook(root: root)
        func refusal(_ body: () throws -> Any) -> WorkbookError? {
            do { _ = try body(); return nil } catch { return error as? WorkbookError }
        }
        #expect(try workbook.exercise(named: "CountdownBlock.swift").exercise.id == "1.1")
        let chapter = try #require(refusal { try workbook.exercise(named: "1") })
        #expect(chapter.isBadInput && chapter.description == "'1' names 3 exercises, and this takes one of them: 1.1, 1.2, 1.3.")
        let none = try #require(refusal { try workbook.exercise(named: "9.9") })
        #expect(none.isBadInput && none.description.hasPrefix("There is no exercise called '9.9'. Try one of: 1.1, 1.2"))

        #expect(try workbook.chapter(of: "Chapter2").number == 2 && workbook.chapter(of: "3.2").number == 3)
        let lesson = try #require(refusal { try workbook.chapter(of: "7") })
        #expect(lesson.isBadInput && lesson.description.hasPrefix("There is no chapter or exercise called '7'. Try one of: Chapter1, Chapter2"))
    }

    @Test("a toolchain below the floor stops the commands that build, with one sentence; the others still run")
    func toolchainFloor() throws {
        let old = Toolchain(version: .init(6, 1))
        let check = try #require(Command.named("check")), lesson = try #require(Command.named("lesson"))
        #expect(toolchainProblem(for: check, toolchain: old)?.contains("Swift \(Toolchain.floor) or later") == true)
        #expect(toolchainProblem(for: check, toolchain: Toolchain(version: .init(6, 2))) != nil, "6.2's Swift Testing takes no capture list in an exit test")
        #expect(toolchainProblem(for: lesson, toolchain: old) == nil, "reading a lesson needs no compiler")
        #expect(toolchainProblem(for: check, toolchain: Toolchain(version: Toolchain.floor)) == nil)
        #expect(toolchainProblem(for: check, toolchain: nil) == nil, "a version that cannot be read is left to SwiftPM to judge")
    }

    @Test("what a command line asks for: help (of one command too), the version, a command; anything else is said, not run as progress")
    func requests() {
        #expect(Request([]) == .command("progress", []))
        #expect(Request(["--help"]) == .overview && Request(["help"]) == .overview && Request(["-h"]) == .overview)
        #expect(Request(["help", "check"]) == .help("check") && Request(["check", "--help"]) == .help("check"))
        #expect(Request(["--version"]) == .version)
        #expect(Request(["check", "1.1", "--runs", "2"]) == .command("check", ["1.1", "--runs", "2"]))
        for bad in [["--bogus"], ["--version", "x"], ["help", "check", "hint"], ["--runs", "3"]] {
            guard case let .bad(message) = Request(bad) else {
                Issue.record("\(bad) is not refused")
                continue
            }
            #expect(!message.contains("progress"), "\(bad): \(message)")
        }
        #expect(CommandLine.run(["help", "check"]) == 0 && CommandLine.run(["--version"]) == 0)
        #expect(CommandLine.run(["help", "frobnicate"]) == 2 && CommandLine.run(["--bogus"]) == 2)
    }

    @Test("a student copy's overview lists what works there — no solution, export, grade, selftest, dimensions or new; doctor, for when it does not work — and how many hint steps it has")
    func studentCopyOverview() {
        let workbook = Command.overview(in: Setting(isStudentCopy: false, hintSteps: 3...3))
        let copy = Command.overview(in: Setting(isStudentCopy: true, hintSteps: 2...2))
        let listed = { (overview: String) in Set(Command.all.map(\.name).filter { name in overview.contains("\n  \(name) ") }) }
        #expect(listed(workbook) == Set(Command.all.map(\.name)).subtracting([.progress]))
        #expect(listed(copy) == [.check, .explain, .watch, .hint, .lesson, .reset, .doctor], "\(copy)")
        #expect(copy.contains("(none), progress"))
        #expect(copy.contains("one step at a time (2 steps in this copy)") && workbook.contains("one step at a time (3 steps)"))
        let withoutHints = Command.overview(in: Setting(isStudentCopy: true, hintSteps: nil))
        #expect(!withoutHints.contains("\n  hint "), "a copy handed out without hints does not offer them")
        #expect(Command.overview(in: Setting(isStudentCopy: true, hintSteps: 1...2)).contains("(1 to 2 steps in this copy)"))
        let selftest = Command.all.filter { !$0.works(in: Setting(isStudentCopy: true)) }.map(\.name)
        #expect(selftest == [.solution, .export, .selftest, .dimensions, .new], "refused in a student copy, with a sentence")
    }

    @Test("after a check: the exercise to fix, or simply the next one (never \"next next\")")
    func nextLine() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let named = try Workbook(root: root).exercise(named: "1.2")
        let (chapter, exercise) = (named.chapter, named.exercise)
        #expect(Next.line(exercise: exercise, in: chapter, failed: false, style: Style(color: false))
            == "Next: 1.2 \(exercise.title) — Exercises/Chapter1Latch/\(exercise.file)")
        #expect(Next.line(exercise: exercise, in: chapter, failed: true, style: Style(color: false)).hasPrefix("Next: fix 1.2 "))
    }
}

/// `hint`'s, `check`'s and `watch`'s sentences, now in the catalogue, read as they did when each command wrote its own.
struct CatalogueSentenceTests {
    @Test func hintSentences() {
        #expect(Says.noHints(for: "1.1", handedOut: nil, exported: false, hintsFile: "Hints/Chapter1.md")
            == "This copy of the workbook has no hints for 1.1 (they are kept in Hints/Chapter1.md).")
        #expect(Says.noHints(for: "1.1", handedOut: HintLevel.none, exported: true, hintsFile: "-")
            == "Your teacher handed out this assignment without hints.")
        #expect(Says.noHints(for: "1.1", handedOut: HintLevel.all, exported: true, hintsFile: "-")
            == "The hints handed out with this assignment do not cover 1.1.")
        #expect(Says.hintsHeading("1.1", "A countdown block") + Says.hintsShown(1, of: 3) == "Hints for 1.1 A countdown block (1 of 3)")
        #expect(Says.nextHint("1.1") == "Run \(Says.command("hint 1.1")) again for the next step.")
        #expect(Says.lastHint(chapter: 2) == "That was the last step. The lesson, \(Says.command("lesson 2")), explains the idea.")
        #expect(Says.watchRound(at: "10:00:00", saved: ["1.1", "1.2"]) == "— 10:00:00 — saved 1.1, 1.2")
    }
}
