import Foundation
import WorkbookKit

extension Command {
    static let progress = Command(
        name: "progress",
        help: """
        USAGE: workbook [progress]

        Shows every chapter's exercises, which are done (passed a `workbook check`), and the next one to
        work on, with the file to open and the lesson to read.
        """,
        options: [], valued: [],
        run: { _ in
            let context = try LearnerContext()
            let style = Style.automatic
            let all = context.workbook.allExercises
            let done = all.filter { context.state.done.contains($0.exercise.id) }.count
            print(style.bold("Dispatch Workbook") + " — \(done) of \(all.count) exercises done")
            for chapter in context.workbook.chapters {
                print("")
                print(style.bold("Chapter \(chapter.number) — \(chapter.title)"))
                print(style.dim(wrap(chapter.summary, indent: "  ")))
                for exercise in chapter.exercises {
                    let mark = context.state.done.contains(exercise.id) ? style.pass : style.dim("·")
                    print("  \(mark) \(exercise.id) \(exercise.title)")
                }
            }
            print("")
            if let next = context.next {
                print("Next: \(style.bold("\(next.exercise.id) \(next.exercise.title)"))")
                print("  read   Exercises/\(next.chapter.name)/README.md   (or `swift run workbook lesson \(next.chapter.number)`)")
                print("  edit   Exercises/\(next.chapter.name)/\(next.exercise.file)")
                print("  check  swift run workbook check \(next.exercise.id)")
            } else {
                print(style.green("Every exercise is done. Well synchronized!"))
            }
            return 0
        })

    static let hint = Command(
        name: "hint",
        help: """
        USAGE: workbook hint <exercise>

        Shows the next hint for an exercise: first a question, then a direction, then the shape of the fix.
        Each call shows one more step (and the ones before it). `--reset` starts the ladder again.

        OPTIONS:
          --reset     start this exercise's hints from the first step
          -h, --help  show this help
        """,
        options: ["--reset"], valued: [],
        run: { options in
            guard options.positional.count == 1 else { throw UsageError(message: "name one exercise, e.g. `workbook hint 1.1`.") }
            var context = try LearnerContext()
            let (chapter, exercise) = try context.workbook.exercise(named: options.positional[0])
            let hints = context.workbook.hints(for: exercise, in: chapter)
            guard !hints.isEmpty else {
                print("This copy of the workbook has no hints for \(exercise.id) (they are kept in \(SourceSet.solutions.folder)/\(chapter.name)/\(HintFile.name)). The lesson, `workbook lesson \(chapter.number)`, explains the idea.")
                return 1
            }
            if options.has("--reset") { context.state.hintsShown[exercise.id] = 0 }
            let shown = min((context.state.hintsShown[exercise.id] ?? 0) + 1, hints.count)
            context.state.hintsShown[exercise.id] = shown
            try context.save()
            let style = Style.automatic
            print(style.bold("Hints for \(exercise.id) \(exercise.title)") + " (\(shown) of \(hints.count))")
            for hint in hints.prefix(shown) {
                print("")
                print(style.bold("\(hint.name):"))
                print(renderMarkdown(hint.text))
            }
            print("")
            print(style.dim(shown < hints.count
                ? "Run `workbook hint \(exercise.id)` again for the next step."
                : "That was the last step. Once \(exercise.id) passes, `workbook solution \(exercise.id)` shows the reference solution."))
            return 0
        })

    static let lesson = Command(
        name: "lesson",
        help: """
        USAGE: workbook lesson <chapter>

        Prints a chapter's lesson (through a pager on a terminal). The lesson is also the README.md next
        to the chapter's exercises.
        """,
        options: [], valued: [],
        run: { options in
            guard options.positional.count == 1 else { throw UsageError(message: "name one chapter, e.g. `workbook lesson 1`.") }
            let workbook = try currentWorkbook()
            let chapter = try workbook.chapter(named: options.positional[0])
                ?? workbook.exercise(named: options.positional[0]).chapter
            try page(workbook.lessonFile(chapter))
            return 0
        })

    static let reset = Command(
        name: "reset",
        help: """
        USAGE: workbook reset <exercise|chapter> [--yes]

        Restores the starter of an exercise (or of every exercise in a chapter). Your file is first saved
        to .workbook-backups/<time>/…, and the command names the backup. On a terminal it asks first.

        OPTIONS:
          --yes       do not ask
          -h, --help  show this help
        """,
        options: ["--yes"], valued: [],
        run: { options in
            guard options.positional.count == 1 else { throw UsageError(message: "name one exercise or chapter, e.g. `workbook reset 1.1`.") }
            var context = try LearnerContext()
            let items = try context.workbook.select(options.positional)
            guard let commit = context.state.starterCommit else {
                throw WorkbookError.toolFailed("`reset` restores starters from the workbook's git history, and this copy has none. Nothing was changed.")
            }
            let names = items.map { $0.exercise.file }.joined(separator: ", ")
            if !options.has("--yes") {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw UsageError(message: "not on a terminal: add --yes to reset \(names).")
                }
                guard confirm("Replace \(names) with the starter? Your version is backed up first.") else {
                    print("Nothing was changed.")
                    return 1
                }
            }
            let starters = Starters(workbook: context.workbook)
            for item in items {
                switch try starters.reset(item.chapter, item.exercise, commit: commit) {
                case .unchanged:
                    print("\(item.exercise.id): \(item.exercise.file) already is the starter; nothing changed.")
                case let .restored(backup?):
                    print("\(item.exercise.id): restored the starter of \(item.exercise.file). Your version is saved at \(relativeToRoot(backup, context.workbook)).")
                case .restored(nil):
                    print("\(item.exercise.id): \(item.exercise.file) was missing; the starter is back.")
                }
                context.state.done.remove(item.exercise.id)
            }
            try context.save()
            return 0
        })

    static let solution = Command(
        name: "solution",
        help: """
        USAGE: workbook solution <exercise> [--force]

        Shows the reference solution of an exercise you have passed, then its non-solutions: answers
        that look right and are not, each with a line on why the tests catch it, and correct answers
        written another way. Looking earlier spoils the puzzle; --force shows it anyway.

        OPTIONS:
          --force     show it although the exercise has not passed yet
          -h, --help  show this help
        """,
        options: ["--force"], valued: [],
        run: { options in
            guard options.positional.count == 1 else { throw UsageError(message: "name one exercise, e.g. `workbook solution 1.1`.") }
            let context = try LearnerContext()
            let (chapter, exercise) = try context.workbook.exercise(named: options.positional[0])
            if !context.state.done.contains(exercise.id) {
                guard options.has("--force") else {
                    FileHandle.standardError.write(Data("\(exercise.id) has not passed yet, so its solution stays hidden. Try `workbook hint \(exercise.id)`, or add --force to look anyway.\n".utf8))
                    return 1
                }
                FileHandle.standardError.write(Data("Warning: \(exercise.id) has not passed yet — the solution ends the puzzle.\n".utf8))
            }
            let file = context.workbook.solutionFile(chapter, exercise)
            let style = Style.automatic
            print(style.dim("// \(relativeToRoot(file, context.workbook))"))
            print(try String(contentsOf: file, encoding: .utf8))
            let corpus = context.workbook.corpus(of: [chapter]).entries.filter { $0.exerciseID == exercise.id }
            let nonSolutions = corpus.filter { $0.expectation != .passes }
            let alternatives = corpus.filter { $0.expectation == .passes }
            if !nonSolutions.isEmpty {
                print(style.bold("Non-solutions") + " — answers that look right and are not; the tests catch each one:")
                for entry in nonSolutions {
                    let kind = if case let .fails(kind) = entry.expectation { kind.label } else { "" }
                    print(wrap("\(style.fail) \(entry.why) (\(kind))", indent: "  "))
                    print("    " + style.dim(relativeToRoot(entry.file, context.workbook)))
                }
            }
            if !alternatives.isEmpty {
                print("")
                print(style.bold("Also correct") + " — the same contract met another way:")
                for entry in alternatives {
                    print(wrap("\(style.pass) \(entry.why)", indent: "  "))
                    print("    " + style.dim(relativeToRoot(entry.file, context.workbook)))
                }
            }
            return 0
        })
}

func relativeToRoot(_ url: URL, _ workbook: Workbook) -> String {
    let root = workbook.root.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
}

/// A hint's Markdown for the terminal: paragraphs wrapped, the lines of a ```swift fence kept as they
/// are and indented.
func renderMarkdown(_ text: String) -> String {
    var output: [String] = []
    var paragraph: [String] = []
    var inCode = false
    func flush() {
        if !paragraph.isEmpty { output.append(wrap(paragraph.joined(separator: " "))) }
        paragraph = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasPrefix("```") {
            flush()
            inCode.toggle()
        } else if inCode {
            output.append("    " + line)
        } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
            flush()
            if output.last != "" { output.append("") }
        } else {
            paragraph.append(line)
        }
    }
    flush()
    while output.last == "" { output.removeLast() }
    return output.joined(separator: "\n")
}
