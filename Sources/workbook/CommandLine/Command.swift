import Foundation
import WorkbookKit

/// A subcommand, declared once: its name, what it takes, and what it does. Parsing, validation,
/// `--help` and the overview are all generated from this declaration.
struct Command: Sendable {
    /// What a user types after `workbook`.
    let name: String
    /// One line for the overview.
    let abstract: String
    /// The positional arguments it takes.
    let arguments: Arguments
    /// What it does, in a paragraph or two, for its `--help`.
    let discussion: String
    let flags: [Flag]
    let run: @Sendable (ParsedArguments) throws -> Int32

    /// Every command, in the order the overview lists them.
    static let all: [Command] = [
        .progress, .check, .explain, .watch, .hint, .lesson, .reset, .solution, .doctor, .export, .grade, .selftest, .dimensions,
    ]

    /// The command called `name`.
    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    /// Whether it builds the chapters (and so needs a toolchain at ``Toolchain/floor`` or later).
    var buildsChapters: Bool {
        [Command.check, .explain, .watch, .grade, .selftest].contains { $0.name == name }
    }

    /// The flag every command takes.
    static let helpFlag = Flag("--help", short: "-h", help: "show this help")

    /// `workbook check [exercise|chapter …] [--runs N] …`
    var usage: String {
        var parts = ["workbook", name]
        if let argument = arguments.usage { parts.append(argument) }
        parts += flags.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    /// The text of `workbook <name> --help`.
    var help: String {
        var text = "USAGE: \(usage)\n\n\(wrap(discussion, width: Terminal.width))\n\nOPTIONS:\n"
        let rows = (flags + [Command.helpFlag]).map { flag in
            (flag.short.map { "\($0), " } ?? "") + flag.synopsis
        }
        let width = min((rows.map(\.count).max() ?? 0) + 2, 24)
        for (row, flag) in zip(rows, flags + [Command.helpFlag]) {
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

    /// The text of `workbook --help`: every command's usage and abstract.
    static var overview: String {
        let rows = all.map { command in
            (command.name == "progress" ? "(none), progress" : command.name)
                + (command.arguments.usage.map { " " + $0 } ?? "")
        }
        let width = (rows.map(\.count).max() ?? 0) + 2
        let list = zip(rows, all).map { row, command in
            "  " + row.padding(toLength: width, withPad: " ", startingAt: 0) + command.abstract
        }
        return """
        OVERVIEW: Dispatch Workbook — Grand Central Dispatch exercises graded under the Thread Sanitizer.

        USAGE: workbook <command> [options]

        COMMANDS:
        \(list.joined(separator: "\n"))

        Names: an exercise is 1.1, 3.2, …; a chapter is 1, Chapter1 or Chapter1Latch.
        Run `workbook <command> --help` for a command's options.
        """
    }
}

/// The positional arguments a command takes, with what to say when they are wrong.
enum Arguments: Sendable {
    case none
    /// Exactly one, e.g. an exercise; `example` completes "name one …, e.g. `workbook hint 1.1`".
    case one(String, example: String)
    /// Any number, e.g. exercises or chapters; none means all.
    case any(String)

    var usage: String? {
        switch self {
        case .none: nil
        case let .one(name, _): "<\(name)>"
        case let .any(name): "[\(name) …]"
        }
    }
}

/// A flag, declared once: its name, the kind of value it takes (and so how that is checked), and its help.
struct Flag: Sendable, Hashable {
    /// What a flag takes after it.
    enum Value: Sendable, Hashable {
        /// Nothing: present or not.
        case none
        /// A whole number above zero.
        case count(default: Int)
        /// A number of seconds above zero.
        case seconds(default: Double)
        /// A file's path.
        case path
        /// Any text, checked by the command; `name` is how the help shows it (e.g. `K/N`).
        case text(name: String)
    }

    let name: String
    let short: String?
    let value: Value
    let help: String

    init(_ name: String, short: String? = nil, _ value: Value = .none, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }

    /// `--runs N`
    var synopsis: String {
        switch value {
        case .none: name
        case .count: "\(name) N"
        case .seconds: "\(name) SECONDS"
        case .path: "\(name) PATH"
        case let .text(valueName): "\(name) \(valueName)"
        }
    }
}
