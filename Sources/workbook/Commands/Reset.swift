import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `reset` takes.
    struct ResetFlags: FlagSet {
        let yes = Flag("--yes", help: "do not ask")
    }

    static let reset: Command = Command(
        name: .reset,
        abstract: "restore the starter (your file is backed up first)",
        arguments: .one("exercise|chapter", example: "1.1"),
        discussion: """
        Restores the starter of an exercise (or of every exercise in a chapter). Your file is first \
        saved to \(Layout.backupsFolder)/<time>/…, and the command names the backup. On a terminal it asks first.
        """,
        flags: ResetFlags.self,
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let items = try workbook.select([arguments.only])
            let names = items.map(\.exercise.file).joined(separator: ", ")
            if !arguments[\.yes] {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw UsageError(message: "not on a terminal: add --yes to reset \(names).")
                }
                guard Terminal.confirm("Replace \(names) with the starter? Your version is backed up first.") else {
                    Terminal.say("Nothing was changed.")
                    return 1
                }
            }
            for (item, outcome) in try session.reset(items) {
                let (id, file) = (item.exercise.id, item.exercise.file)
                switch outcome {
                case .unchanged:
                    Terminal.say("\(id): \(file) already is the starter; nothing changed.")
                case let .restored(backup?):
                    Terminal.say("\(id): restored the starter of \(file). Your version is saved at \(workbook.layout.relative(backup)).")
                case .restored(nil):
                    Terminal.say("\(id): \(file) was missing; the starter is back.")
                }
            }
            return 0
        })
}
