import Foundation
import WorkbookKit

extension CommandLine {
    /// Parses the arguments, runs one command, and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let name = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? ""
        if !name.isEmpty { arguments.removeFirst() }
        if name.isEmpty && (arguments.contains("--help") || arguments.contains("-h")) {
            print(Usage.main)
            return 0
        }
        guard let command = Command.all[name.isEmpty ? "progress" : name] else {
            FileHandle.standardError.write(Data("workbook: unknown command '\(name)'.\n\n\(Usage.main)\n".utf8))
            return 2
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help)
            return 0
        }
        do {
            let options = try Options(arguments, accepting: command.options, valued: command.valued)
            return try command.run(options)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("workbook \(command.name): \(error.message)\n\n\(command.help)\n".utf8))
            return 2
        } catch let error as WorkbookError where error.isBadInput {
            FileHandle.standardError.write(Data("workbook \(command.name): \(error)\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("workbook: \(error)\n".utf8))
            return 1
        }
    }
}

/// A subcommand: its name, help text, accepted flags, and what it does.
struct Command: Sendable {
    let name: String
    let help: String
    /// Flags without a value, e.g. `--json`.
    let options: Set<String>
    /// Flags that take a value, e.g. `--runs`.
    let valued: Set<String>
    let run: @Sendable (Options) throws -> Int32

    static let all: [String: Command] = Dictionary(uniqueKeysWithValues: [
        Command.progress, Command.check, Command.watch, Command.hint, Command.lesson,
        Command.reset, Command.solution, Command.selftest,
    ].map { ($0.name, $0) })
}

/// A bad command line; the message says what was wrong.
struct UsageError: Error {
    let message: String
}

/// Parsed flags and positional arguments.
struct Options {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positional: [String] = []

    init(_ arguments: [String], accepting flags: Set<String>, valued: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-") {
                let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                if valued.contains(parts[0]) {
                    if parts.count == 2 {
                        values[parts[0]] = parts[1]
                    } else {
                        index += 1
                        guard index < arguments.count else { throw UsageError(message: "\(parts[0]) needs a value.") }
                        values[parts[0]] = arguments[index]
                    }
                } else if flags.contains(argument) {
                    self.flags.insert(argument)
                } else {
                    throw UsageError(message: "unknown option '\(argument)'.")
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A positive whole number given with `flag`, or `fallback`.
    func count(_ flag: String, default fallback: Int) throws -> Int {
        guard let text = values[flag] else { return fallback }
        guard let value = Int(text), value > 0 else {
            throw UsageError(message: "\(flag) takes a whole number above zero, not '\(text)'.")
        }
        return value
    }
}

/// The workbook this command runs in.
func currentWorkbook() throws -> Workbook {
    if let root = ProcessInfo.processInfo.environment["WORKBOOK_ROOT"] {
        return try Workbook(root: URL(fileURLWithPath: root))
    }
    guard let root = Workbook.findRoot(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) else {
        throw WorkbookError.notInWorkbook
    }
    return try Workbook(root: root)
}

/// Prints a line of progress to standard error, so standard output stays clean for --json.
let progressLine: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data((Style.automatic(for: STDERR_FILENO).dim(line) + "\n").utf8))
}
