import Foundation
import WorkbookKit

extension Command {
    static let progress = Command(
        name: "progress",
        help: "USAGE: workbook [progress]\n\nShows which exercises are done and the next one to work on.",
        options: [], valued: [],
        run: { _ in
            let workbook = try currentWorkbook()
            print("Dispatch Workbook — \(workbook.allExercises.count) exercises in \(workbook.chapters.count) chapters.")
            return 0
        })
}

extension Command {
    static let check = Command(
        name: "check",
        help: "USAGE: workbook check [exercise|chapter …]",
        options: [], valued: [],
        run: { _ in 1 })
}

enum Usage {
    static let main = """
    USAGE: workbook <command> [options]

    COMMANDS:
      (none), progress   what is done and what to do next
      check [names…]     grade your exercises under the Thread Sanitizer
      selftest           maintainers: every starter fails, every solution passes

    Run `workbook <command> --help` for a command's options.
    """
}
