import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `watch` takes.
    struct WatchFlags: FlagSet {
        let interval = Flag("--interval", .seconds(default: 1), help: "how often to look for saved files (default 1 second)")
    }

    static let watch: Command = Command(
        name: .watch,
        abstract: "re-check the exercise you are editing on every save",
        arguments: .none,
        discussion: """
        Checks everything once, then watches \(SourceSet.exercises.folder)/: each time you save an exercise's \
        file, its chapter is checked again and that exercise's verdict is shown in full, the rest of \
        its chapter one line each. An exercise that never finishes is stopped by the grader's \
        watchdog, so watching goes on. Press Ctrl-C to stop.
        """,
        flags: WatchFlags.self,
        buildsChapters: true,
        run: { arguments in
            let interval = arguments[\.interval]
            let workbook = try currentWorkbook()
            var watcher = FileWatcher(folder: workbook.layout.url(SourceSet.exercises.folder))
            let style = Terminal.style
            Terminal.say(style.dim(Says.watchStarts))
            check(workbook, workbook.allExercises, saved: [], style: style)
            while true {
                if let round = WatchRound(changedPaths: watcher.changes(), in: workbook) {
                    Terminal.say("")
                    Terminal.say(style.dim(Says.watchRound(at: Date().formatted(date: .omitted, time: .standard), saved: round.saved)))
                    check(workbook, round.items(in: workbook), saved: Set(round.saved), style: style)
                }
                Thread.sleep(forTimeInterval: interval)
            }
        })

    /// One check while watching: the saved exercises in full, the others one line each.
    private static func check(_ workbook: Workbook, _ items: [ExerciseRef], saved: Set<String>, style: Style) {
        do {
            var session = try LearnerSession(workbook: workbook)
            let checked = try session.check(items, with: Terminal.checker(for: workbook))
            let report = checked.report
            Terminal.say(report.rendered(style: style, verbose: false, workbook: workbook, width: Terminal.width,
                                         paths: Terminal.paths(for: workbook),
                                         inFull: { saved.contains($0.exercise.id) }))
            printChange(checked.change, style: style)
            printNext(checked.next, report: report, style: style)
        } catch {
            Terminal.say(Says.couldNotCheck(error))
        }
    }
}
