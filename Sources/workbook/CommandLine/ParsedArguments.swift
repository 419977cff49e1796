import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
import WorkbookMaintainer

/// A bad command line; the message says what was wrong (exit status 2).
struct UsageError: Error {
    let message: String
}

/// A command line read against a command's declaration: every flag known, every value checked.
struct ParsedArguments {
    /// The positional arguments, in order.
    private(set) var positional: [String] = []
    private var present: Set<String> = []
    private var counts: [String: Int] = [:]
    private var seconds: [String: Double] = [:]
    private var texts: [String: String] = [:]

    /// Reads `arguments` (without the command's name) for `command`.
    init(_ arguments: [String], for command: Command) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let flag = command.flags.first(where: { $0.name == parts[0] || $0.short == parts[0] }) else {
                throw UsageError(message: "unknown option '\(parts[0])'.")
            }
            guard flag.value != .none else {
                guard parts.count == 1 else { throw UsageError(message: "\(flag.name) takes no value.") }
                present.insert(flag.name)
                continue
            }
            let text: String
            if parts.count == 2 {
                text = parts[1]
            } else {
                guard index < arguments.count else { throw UsageError(message: "\(flag.name) needs a value: \(flag.synopsis).") }
                text = arguments[index]
                index += 1
            }
            try store(text, for: flag)
        }
        try check(positional, against: command)
    }

    private mutating func store(_ text: String, for flag: Flag) throws {
        present.insert(flag.name)
        switch flag.value {
        case .none:
            break
        case .count:
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "\(flag.name) takes a whole number above zero, not '\(text)'.")
            }
            counts[flag.name] = value
        case .seconds:
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError(message: "\(flag.name) takes a number of seconds above zero, not '\(text)'.")
            }
            seconds[flag.name] = value
        case .path, .text:
            guard !text.isEmpty else { throw UsageError(message: "\(flag.name) needs a value: \(flag.synopsis).") }
            texts[flag.name] = text
        }
    }

    private func check(_ positional: [String], against command: Command) throws {
        switch command.arguments {
        case .none:
            if let first = positional.first {
                throw UsageError(message: "\(Says.command(command.name.rawValue)) takes no arguments, not '\(first)'.")
            }
        case let .one(name, example):
            guard positional.count == 1 else {
                throw UsageError(message: "name one \(name), e.g. \(Says.command("\(command.name) \(example)")).")
            }
        case .any:
            break
        case let .these(names, example):
            guard positional.count == names.count else {
                throw UsageError(message: "name \(names.joined(separator: " and ")), e.g. \(Says.command("\(command.name) \(example)")).")
            }
        }
    }

    /// Whether `flag` was given.
    func has(_ flag: Flag) -> Bool { present.contains(flag.name) }

    /// The number given with `flag`, or its default.
    func count(_ flag: Flag) -> Int {
        guard case let .count(fallback) = flag.value else { preconditionFailure("\(flag.name) takes no count") }
        return counts[flag.name] ?? fallback
    }

    /// The seconds given with `flag`, or its default.
    func seconds(_ flag: Flag) -> Double {
        guard case let .seconds(fallback) = flag.value else { preconditionFailure("\(flag.name) takes no seconds") }
        return seconds[flag.name] ?? fallback
    }

    /// The text (or path) given with `flag`, if any.
    func text(_ flag: Flag) -> String? { texts[flag.name] }

    /// The one positional argument of a `.one` command.
    var only: String { positional[0] }
}
