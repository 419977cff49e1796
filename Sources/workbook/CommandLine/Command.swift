import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// A subcommand, declared once: its name, what it takes, and what it does. Parsing, validation,
/// `--help` and the overview are all generated from this declaration.
struct Command: Sendable {
    /// What a user types after `workbook`.
    let name: Name
    /// One line for the overview.
    let abstract: String
    /// The positional arguments it takes.
    let arguments: Arguments
    /// What it does, in a paragraph or two, for its `--help`.
    let discussion: String
    /// The type whose properties are its flags: what it reads, and so what it takes.
    let flagSet: any FlagSet.Type
    /// Who it is for, and so where it works and is listed.
    let audience: Audience
    /// Whether it builds the chapters (and so needs a toolchain at ``Toolchain/floor`` or later).
    let buildsChapters: Bool
    /// Reads the arguments after its name for this command, its flags as their types, into its run.
    private let reading: @Sendable (Command, [String]) throws -> () throws -> Int32

    init<Flags: FlagSet>(name: Name, abstract: String, arguments: Arguments, discussion: String, flags: Flags.Type,
                         audience: Audience = .everyone, buildsChapters: Bool = false,
                         run: @escaping @Sendable (ParsedArguments<Flags>) throws -> Int32) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.discussion = discussion
        flagSet = flags
        self.audience = audience
        self.buildsChapters = buildsChapters
        reading = { command, arguments in
            let parsed = try ParsedArguments<Flags>(arguments, for: command)
            return { try run(parsed) }
        }
    }

    /// The flags it takes, in the order its usage and help list them.
    var flags: [AnyFlag] { flagSet.declared }

    /// Reads `arguments`, the command line after its name, into running it with them; a bad command
    /// line throws a ``UsageError``.
    func parse(_ arguments: [String]) throws -> () throws -> Int32 { try reading(self, arguments) }

    /// Every command's name, in the order the overview lists them; each has its declaration
    /// (``command``), so a name without a command, or a command without a name, does not compile.
    enum Name: String, CaseIterable, Sendable, CustomStringConvertible {
        case progress, check, explain, watch, hint, lesson, reset, solution, doctor, export, grade, selftest, dimensions, new

        /// The command of this name. Each command's declaration states its type (`static let check:
        /// Command = …`): without it, naming them all here had the compiler type-check every command's
        /// run closure again, in this file's batch (Exercises/MEASUREMENTS.md, M24).
        var command: Command {
            switch self {
            case .progress: Command.progress
            case .check: Command.check
            case .explain: Command.explain
            case .watch: Command.watch
            case .hint: Command.hint
            case .lesson: Command.lesson
            case .reset: Command.reset
            case .solution: Command.solution
            case .doctor: Command.doctor
            case .export: Command.export
            case .grade: Command.grade
            case .selftest: Command.selftest
            case .dimensions: Command.dimensions
            case .new: Command.new
            }
        }

        var description: String { rawValue }
    }

    /// Every command, in the order the overview lists them.
    static var all: [Command] { Name.allCases.map(\.command) }

    /// The command called `name`.
    static func named(_ name: String) -> Command? { Name(rawValue: name)?.command }

    /// The flag every command takes.
    static let helpFlag = Flag("--help", short: "-h", help: "show this help")
    /// What `workbook --version` and `workbook help` are asked with.
    static let versionFlag = "--version"
    static let helpCommand = "help"

    /// `workbook check [exercise|chapter …] [--runs N] …`, as the learner starts the tool.
    var usage: String {
        var parts = [CommandForm.current.line(name.rawValue)]
        if let argument = arguments.usage { parts.append(argument) }
        parts += flags.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    /// The text of `workbook <name> --help`.
    var help: String {
        var text = "USAGE: \(usage)\n\n\(wrap(discussion, width: Terminal.width))\n\nOPTIONS:\n"
        let flags = flags + [AnyFlag(Command.helpFlag)]
        let rows = flags.map { flag in
            (flag.short.map { "\($0), " } ?? "") + flag.synopsis
        }
        let width = min((rows.map(\.count).max() ?? 0) + 2, 24)
        for (row, flag) in zip(rows, flags) {
            if row.count + 2 > width {
                text += "  \(row)\n" + wrap(flag.help, indent: String(repeating: " ", count: width + 2), width: Terminal.width) + "\n"
            } else {
                let first = "  " + row.padding(toLength: width, withPad: " ", startingAt: 0)
                let body = wrap(flag.help, indent: String(repeating: " ", count: width + 2), width: Terminal.width)
                text += first + body.dropFirst(width + 2) + "\n"
            }
        }
        return String(text.dropLast())
    }

    /// Whether it works in `setting`: the workbook's own commands need its solutions and tests,
    /// which a student copy does not have.
    func works(in setting: Setting) -> Bool {
        audience != .workbook || !setting.isStudentCopy
    }

    /// Whether the overview lists it in `setting`: what works there for its reader — in a student
    /// copy not the teacher's commands, and `hint` only when the copy has hints.
    func isListed(in setting: Setting) -> Bool {
        guard setting.isStudentCopy else { return true }
        switch audience {
        case .everyone: return true
        case .workbook, .teachers: return false
        case .hints: return setting.hintSteps != nil
        }
    }

    /// Its line in the overview: the abstract, and for `hint` how many steps each exercise has here.
    func summary(in setting: Setting) -> String {
        guard audience == .hints, let steps = setting.hintSteps else { return abstract }
        let count = steps.lowerBound == steps.upperBound ? "\(steps.lowerBound)" : "\(steps.lowerBound) to \(steps.upperBound)"
        return abstract + " (\(count) step\(steps.upperBound == 1 ? "" : "s")\(setting.isStudentCopy ? " in this copy" : ""))"
    }

    /// The text of `workbook --help` and `workbook help` in `setting`: the usage and abstract of every
    /// command listed there.
    static func overview(in setting: Setting) -> String {
        let listed = all.filter { $0.isListed(in: setting) }
        let rows = listed.map { command in
            (command.name == .progress ? "(none), progress" : command.name.rawValue)
                + (command.arguments.usage.map { " " + $0 } ?? "")
        }
        let width = (rows.map(\.count).max() ?? 0) + 2
        let list = zip(rows, listed).map { row, command in
            "  " + row.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary(in: setting)
        }
        return """
        OVERVIEW: Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.

        USAGE: \(CommandForm.current.line("<command> [options]"))

        COMMANDS:
        \(list.joined(separator: "\n"))

        Names: an exercise is 1.1, 3.2, …; a chapter is 1, Chapter1 or Chapter1Latch.
        Run \(Says.command("help <command>")) for a command's options, \(Says.command("--version")) for the version.
        """
    }
}

/// Who a command is for.
enum Audience: Sendable, Equatable {
    /// Learners, wherever they work.
    case everyone
    /// The workbook's maintainers and teachers, in the workbook itself: it needs the solutions, the
    /// near misses or the engine's tests, which a student copy does not have.
    case workbook
    /// Teachers: it works in the copy they exported, but a student copy does not list it.
    case teachers
    /// Learners, where there are hints.
    case hints
}

/// Where the tool runs, as far as its commands care.
struct Setting: Sendable, Equatable {
    /// A student copy `workbook export` wrote, rather than the workbook itself.
    var isStudentCopy = false
    /// How many hint steps an exercise has here, fewest to most; `nil` when there are none.
    var hintSteps: ClosedRange<Int>?

    /// The setting of `workbook`.
    init(of workbook: Workbook) {
        isStudentCopy = workbook.isStudentCopy
        hintSteps = workbook.hintSteps
    }

    init(isStudentCopy: Bool = false, hintSteps: ClosedRange<Int>? = nil) {
        self.isStudentCopy = isStudentCopy
        self.hintSteps = hintSteps
    }
}

/// The positional arguments a command takes, with what to say when they are wrong.
enum Arguments: Sendable {
    case none
    /// Exactly one, e.g. an exercise; `example` completes "name one …, e.g. `workbook hint 1.1`".
    case one(String, example: String)
    /// Any number, e.g. exercises or chapters; none means all.
    case any(String)
    /// Exactly these, in this order; `example` completes "name …, e.g. `workbook new 5 \"A bounded buffer\"`".
    case these([String], example: String)

    var usage: String? {
        switch self {
        case .none: nil
        case let .one(name, _): "<\(name)>"
        case let .any(name): "[\(name) …]"
        case let .these(names, _): names.map { "<\($0)>" }.joined(separator: " ")
        }
    }
}
