import Foundation
import WorkbookKit

extension CommandLine {
    /// Parses the arguments, runs one command, and returns the exit status: 0 when everything asked
    /// for passed, 1 when something did not, 2 for a bad command line or a name that does not exist.
    static func run(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        let name = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? ""
        if !name.isEmpty { arguments.removeFirst() }
        let asksForHelp = arguments.contains { $0 == Command.helpFlag.name || $0 == Command.helpFlag.short }
        if name.isEmpty && asksForHelp {
            print(Command.overview)
            return 0
        }
        guard let command = Command.named(name.isEmpty ? Command.progress.name : name) else {
            Terminal.warn("workbook: unknown command '\(name)'.\n\n\(Command.overview)")
            return 2
        }
        if asksForHelp {
            print(command.help)
            return 0
        }
        if let problem = toolchainProblem(for: command, toolchain: Toolchain.current) {
            Terminal.warn("workbook \(command.name): \(problem)")
            return 1
        }
        do {
            return try command.run(ParsedArguments(arguments, for: command))
        } catch let error as UsageError {
            Terminal.warn("workbook \(command.name): \(error.message)\n\nUSAGE: \(command.usage)\nSee `workbook \(command.name) --help`.")
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

/// Why `command` cannot run with `toolchain` (the `swift` on PATH, which builds the chapters), in one
/// sentence; `nil` when it can, or does not build anything.
func toolchainProblem(for command: Command, toolchain: Toolchain?) -> String? {
    guard command.buildsChapters else { return nil }
    return toolchain?.floorProblem
}

/// The workbook this command runs in: `WORKBOOK_ROOT`, or the package around the current directory.
func currentWorkbook() throws -> Workbook {
    if let root = ProcessInfo.processInfo.environment["WORKBOOK_ROOT"] {
        return try Workbook(root: URL(fileURLWithPath: root))
    }
    guard let root = Workbook.findRoot(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) else {
        throw WorkbookError.notInWorkbook
    }
    return try Workbook(root: root)
}
