import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `explain` takes: `--runs`, as `check` does.
    struct ExplainFlags: FlagSet {
        let runs = CheckFlags().runs
    }

    static let explain: Command = Command(
        name: .explain,
        abstract: "draw an exercise's race as a timeline of the two threads",
        arguments: .one("exercise", example: "1.1"),
        discussion: """
        Checks one exercise as `check` does and, when TSan reports a race in it, draws the two threads \
        side by side: your lines in the order TSan saw them, with the lines of your file on each \
        thread's stack at that access (a thread's stack does not show who submitted its block, and \
        TSan may keep only part of the earlier access's), and between them the ordering TSan did not \
        see. Then it asks which line you would move, or guard. Exit status 0 only if the exercise passed.
        """,
        flags: ExplainFlags.self,
        buildsChapters: true,
        run: { arguments in
            let workbook = try currentWorkbook()
            var session = try LearnerSession(workbook: workbook)
            let items = try workbook.select([arguments.only])
            let checked = try session.check(items, with: Terminal.checker(for: workbook), runs: arguments[\.runs])
            let report = checked.report
            let style = Terminal.style
            // A race is drawn below: its verdict's first line is enough here. Any other failure is
            // said in full, since there is no drawing to say it.
            Terminal.say(style.fitting(report.rendered(style: style, verbose: false, workbook: workbook, width: Terminal.width,
                                                       paths: Terminal.paths(for: workbook),
                                                       inFull: { !$0.hasRaceDrawing })))
            for explanation in report.explanations(width: min(Terminal.width, 80), racesOnly: false) {
                Terminal.say("")
                Terminal.say(explanation)
            }
            printChange(checked.change, style: style)
            return report.passed ? 0 : 1
        })
}
