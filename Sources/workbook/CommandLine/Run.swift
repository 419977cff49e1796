import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension CommandLine {
    /// Parses the arguments, runs one command, and returns the exit status: 0 when everything asked
    /// for passed, 1 when something did not, 2 for a bad command line or a name that does not exist.
    static func run(_ arguments: [String], environment: WorkbookEnvironment = Terminal.environment) -> Int32 {
        let setting = (try? currentWorkbook(in: environment)).map(Setting.init(of:)) ?? Setting()
        switch Request(arguments) {
        case .overview:
            print(Command.overview(in: setting))
            return 0
        case .version:
            print("workbook \(Workbook.toolVersion)")
            return 0
        case let .help(name):
            guard let command = Command.named(name) else {
                Terminal.warn("workbook: there is no command '\(name)'.\n\n\(Command.overview(in: setting))")
                return 2
            }
            print(command.help)
            return 0
        case let .bad(message):
            Terminal.warn("workbook: \(message)\n\n\(Command.overview(in: setting))")
            return 2
        case let .command(name, rest):
            guard let command = Command.named(name) else {
                Terminal.warn("workbook: unknown command '\(name)'.\n\n\(Command.overview(in: setting))")
                return 2
            }
            guard command.works(in: setting) else {
                Terminal.warn("workbook \(command.name): \(Says.notInStudentCopy(command.name.rawValue))")
                return 2
            }
            return run(command, rest)
        }
    }

    /// Runs `command` with its arguments.
    private static func run(_ command: Command, _ arguments: [String]) -> Int32 {
        if let problem = toolchainProblem(for: command, toolchain: Terminal.platform.toolchain) {
            Terminal.warn("workbook \(command.name): \(problem)")
            return 1
        }
        do {
            return try command.parse(arguments)()
        } catch let error as UsageError {
            Terminal.warn("workbook \(command.name): \(error.message)\n\nUSAGE: \(command.usage)\nSee \(Says.command("help \(command.name)")).")
            return 2
        } catch let error as ClassroomError where error.isBadInput {
            Terminal.warn("workbook \(command.name): \(error)")
            return 2
        } catch let error as WorkbookError where error.isBadInput {
            Terminal.warn("workbook \(command.name): \(error)")
            return 2
        } catch {
            Terminal.warn("workbook \(command.name): \(error)")
            return 1
        }
    }
}

/// What a command line asks for, before any command reads its own arguments.
enum Request: Equatable {
    /// `workbook --help`, `workbook help`.
    case overview
    /// `workbook --version`.
    case version
    /// `workbook help <command>`, `workbook <command> --help`.
    case help(String)
    /// A command (`progress` when none is named) with the arguments after its name.
    case command(String, [String])
    /// A line no command can take; the message says why.
    case bad(String)

    init(_ arguments: [String]) {
        let helpFlags = [Command.helpFlag.name, Command.helpFlag.short].compactMap { $0 }
        guard let first = arguments.first else {
            self = .command(Command.Name.progress.rawValue, [])
            return
        }
        if first == Command.helpCommand {
            switch arguments.count {
            case 1: self = .overview
            case 2: self = .help(arguments[1])
            default: self = .bad("`help` takes one command's name, e.g. \(Says.command("help check")).")
            }
        } else if first == Command.versionFlag {
            self = arguments.count == 1 ? .version : .bad("--version takes nothing after it.")
        } else if first.hasPrefix("-") {
            self = helpFlags.contains(first) ? .overview
                : .bad("unknown option '\(first)'; the options come after a command, e.g. \(Says.command("check --runs 3")).")
        } else if arguments.dropFirst().contains(where: helpFlags.contains) {
            self = .help(first)
        } else {
            self = .command(first, Array(arguments.dropFirst()))
        }
    }
}

/// Why `command` cannot run with `toolchain` (the `swift` on PATH, which builds the chapters), in one
/// sentence; `nil` when it can, or does not build anything.
func toolchainProblem(for command: Command, toolchain: Toolchain?) -> String? {
    guard command.buildsChapters else { return nil }
    return toolchain?.floorProblem
}

/// The workbook this command runs in: `WORKBOOK_ROOT`, or the package around the current directory.
func currentWorkbook(in environment: WorkbookEnvironment = Terminal.environment) throws -> Workbook {
    if let root = environment.root {
        return try Workbook(root: root)
    }
    guard let root = Workbook.findRoot(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) else {
        throw WorkbookError.notInWorkbook
    }
    return try Workbook(root: root)
}

#if !WORKBOOK_MAINTAINERS
/// A maintainers' command asked of the tool a learner builds, which leaves their layer out
/// (``BuildSettings/maintainers``): builds the workbook's tool with it and becomes that tool, with the
/// same command line. Returns only by throwing — when that build fails, or when this process is
/// already the one it started.
func runInMaintainersBuild(_ command: Command.Name) throws -> Int32 {
    guard !Terminal.environment.relaunched else { throw WorkbookError.maintainersCommandsMissing(command: command.rawValue) }
    let workbook = try currentWorkbook()
    Terminal.say(wrap(Says.buildingMaintainersTool(for: command.rawValue), width: Terminal.width))
    try MaintainersBuild(root: workbook.root, platform: Terminal.platform).relaunch(CommandLine.arguments)
}
#endif
