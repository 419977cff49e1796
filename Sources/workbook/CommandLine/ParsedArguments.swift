import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// A bad command line; the message says what was wrong (exit status 2).
struct UsageError: Error {
    let message: String
}

/// A command line read against a command's declaration: every flag known, every value checked, and
/// each flag's value read as its type, through the key path of a flag `Flags` declares
/// (`arguments[\.runs]` is an `Int`).
struct ParsedArguments<Flags: FlagSet> {
    /// The positional arguments, in order.
    private(set) var positional: [String] = []
    /// The value of each flag given, by its name, of that flag's `Value` type.
    private var values: [String: any Sendable] = [:]

    /// Reads `arguments` (without the command's name) for `command`.
    init(_ arguments: [String], for command: Command) throws {
        precondition(command.flagSet == Flags.self, "\(command.name) reads the flags of \(command.flagSet), not \(Flags.self)")
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
            guard flag.takesValue else {
                guard parts.count == 1 else { throw UsageError(message: "\(flag.name) takes no value.") }
                values[flag.name] = try flag.read("")
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
            values[flag.name] = try flag.read(text)
        }
        try check(positional, against: command)
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

    /// The value given with `flag`, or its value when not given.
    subscript<Value>(_ flag: KeyPath<Flags, Flag<Value>>) -> Value {
        let flag = Flags()[keyPath: flag]
        // `values` holds what the flag's own kind read: of its type.
        return values[flag.name].map { $0 as! Value } ?? flag.kind.absent
    }

    /// The one positional argument of a `.one` command.
    var only: String { positional[0] }
}
