import Foundation
import WorkbookKit

extension Command {
    static let check = Command(
        name: "check",
        help: """
        USAGE: workbook check [exercise|chapter …] [--runs N] [--verbose] [--json] [--junit PATH]

        Builds your exercises under the Thread Sanitizer and grades them: ✔, or ✘ with the reason — a
        data race (the two lines of your file that raced), a wrong result, code that never finished (a
        hang), a crash, or a compile error. A chapter that does not compile does not stop the others from being graded.
        With no names, checks everything. Exit status 0 only if everything checked passed.

        OPTIONS:
          --runs N       run the tests N times, to shake out races that show only sometimes
          --verbose      also print the raw TSan reports and test messages
          --json         print results as JSON (Exercism results.json v3, with chapter, kind, location)
          --junit PATH   also write JUnit XML to PATH
          -h, --help     show this help
        """,
        options: ["--verbose", "--json"], valued: ["--runs", "--junit"],
        run: { options in
            var context = try LearnerContext()
            let items = try context.workbook.select(options.positional)
            let runs = try options.count("--runs", default: 1)
            let report = try Checker(workbook: context.workbook, progress: progressLine).check(items, runs: runs)
            let frozen = context.state.starterCommit.map { Starters(workbook: context.workbook).frozenChanges(since: $0) } ?? []
            if !frozen.isEmpty {
                FileHandle.standardError.write(Data((Style.automatic(for: STDERR_FILENO).yellow(
                    "Warning: files outside Exercises/ changed since the workbook was set up, so these verdicts may not mean what they say: "
                        + frozen.prefix(5).joined(separator: ", ") + (frozen.count > 5 ? ", …" : "")
                        + ". Only the files in Exercises/ are yours to edit.") + "\n").utf8))
            }
            context.state.record(report)
            try context.save()
            if let path = options.values["--junit"] {
                try report.junitXML().write(toFile: path, atomically: true, encoding: .utf8)
            }
            if options.has("--json") {
                FileHandle.standardOutput.write(report.exercismJSON(frozenChanges: frozen))
                print("")
            } else {
                let text = report.rendered(style: .automatic, verbose: options.has("--verbose"), workbook: context.workbook)
                // Raw TSan reports name functions by mangled symbols; make them readable.
                print(options.has("--verbose") ? Demangler.demangle(text) : text)
                if let next = context.next, !report.passed {
                    print("Next: \(next.exercise.id) \(next.exercise.title) — Exercises/\(next.chapter.name)/\(next.exercise.file)")
                }
            }
            return report.passed ? 0 : 1
        })

    static let watch = Command(
        name: "watch",
        help: """
        USAGE: workbook watch [--interval SECONDS]

        Watches Exercises/ and re-checks the chapter of every file you save, printing its verdict and
        what to do next. An exercise that never finishes is stopped by the grader's watchdog, so watching goes on.
        Press Ctrl-C to stop.

        OPTIONS:
          --interval S   how often to look for changes (default 1 second)
          -h, --help     show this help
        """,
        options: [], valued: ["--interval"],
        run: { options in
            let given = options.values["--interval"] ?? "1"
            guard let interval = Double(given), interval > 0, interval.isFinite else { throw UsageError(message: "--interval takes a number of seconds above zero.") }
            let workbook = try currentWorkbook()
            var watcher = FileWatcher(folder: workbook.root.appendingPathComponent("Exercises"))
            print("Watching Exercises/ — save a file to check its chapter. Ctrl-C stops.")
            while true {
                let changed = watcher.changes()
                let chapters = workbook.chapters.filter { chapter in
                    changed.contains { $0.contains("/Exercises/\(chapter.name)/") }
                }
                for chapter in chapters {
                    print("")
                    print(Style.automatic.dim("— \(Date().formatted(date: .omitted, time: .standard)) — checking \(chapter.shortName)"))
                    var context = try LearnerContext()
                    let items = chapter.exercises.map { (chapter: chapter, exercise: $0) }
                    do {
                        let report = try Checker(workbook: workbook, progress: progressLine).check(items)
                        context.state.record(report)
                        try context.save()
                        print(report.rendered(style: .automatic, verbose: false, workbook: workbook))
                        if let next = context.next {
                            print("Next: \(next.exercise.id) \(next.exercise.title) — Exercises/\(next.chapter.name)/\(next.exercise.file)")
                        }
                    } catch {
                        print("Could not check \(chapter.shortName): \(error)")
                    }
                }
                Thread.sleep(forTimeInterval: interval)
            }
        })
}
