import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `grade` takes.
    struct GradeFlags: FlagSet {
        let out = Flag("--out", .path, help: "the gradebook CSV to write (required)")
        let html = Flag("--html", .path, help: "also write a one-page HTML report: students × exercises, coloured by verdict")
        let jobs = Flag("--jobs", .count(default: 1), help: "submissions graded at once (default 1; each needs its own TSan build)")
        let shard = Flag("--shard", .text(name: "K/N"), help: "grade only every N-th submission, starting at the K-th (for a CI matrix)")
        let merge = Flag("--merge", help: "join the CSVs named (one per shard) instead of grading")
    }

    static let grade: Command = Command(
        name: .grade,
        abstract: "teachers: grade every submission into a gradebook",
        arguments: .any("submissions-folder | shard.csv"),
        discussion: """
        For teachers, run in the student copy you exported (it has \(WorkbookLock.fileName)): grades every \
        folder of SUBMISSIONS (each a clone of a student's repository) — only the students' exercise \
        files are copied into a pristine copy, so every protected file is as handed out, as the \
        autograding workflow restores them — and writes one row per student: points, verdict and reason \
        per exercise, the total and the most there was, the protected files the student changed (named; \
        they change no points), and a note when a submission did not build or timed out; and what \
        settles a dispute: the commit graded and its date, when it was graded, the assignment, and each \
        exercise whose code is the same as a correct answer the workbook knows (from \(TeacherFile.fileName), \
        which `export` keeps in this folder) or as another student's. Prints a line per student. Student code runs in a sandbox (on Linux no network and a read-only \
        file system outside its folder; it is not a container).

        With --merge, joins the CSVs of the shards of one batch into one gradebook.
        """,
        flags: GradeFlags.self,
        audience: .teachers,
        buildsChapters: true,
        run: { arguments in
            guard let out = arguments[\.out] else { throw UsageError(message: "say where the gradebook goes: --out gradebook.csv.") }
            let gradebook: Gradebook
            if arguments[\.merge] {
                guard !arguments.positional.isEmpty else { throw UsageError(message: "name the shards' CSVs to merge.") }
                gradebook = try Gradebook.merge(arguments.positional.map { path in
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                        throw UsageError(message: "cannot read '\(path)'.")
                    }
                    return try Gradebook(csv: text)
                })
            } else {
                guard arguments.positional.count == 1 else {
                    throw UsageError(message: "name one folder of submissions, e.g. \(Says.command("grade submissions --out gradebook.csv")).")
                }
                let workbook = try currentWorkbook()
                guard FileManager.default.fileExists(atPath: workbook.layout.url(WorkbookLock.fileName).path) else {
                    throw UsageError(message: "there is no \(WorkbookLock.fileName) here: run grade in the student copy \(Says.command("export")) wrote (the assignment's template).")
                }
                let folder = URL(fileURLWithPath: arguments.only)
                var submissions = try BatchGrader.submissions(in: folder)
                if let text = arguments[\.shard] {
                    let shard = try Shard(parsing: text)
                    let names = shard.select(submissions.map(\.lastPathComponent))
                    submissions = submissions.filter { names.contains($0.lastPathComponent) }
                }
                guard let executable = Bundle.main.executableURL else { throw UsageError(message: "cannot find the workbook tool's own path.") }
                var grader = try BatchGrader(workbook: workbook, executable: executable, platform: Terminal.platform,
                                             workFolder: workbook.layout.url(Layout.scratch(.grade)), progress: Terminal.progress)
                grader.jobs = arguments[\.jobs]
                if !grader.comparesWithAnswers {
                    Terminal.warn(wrap(Says.noTeacherFile, width: Terminal.width))
                }
                Terminal.progress("Grading \(submissions.count) submission\(submissions.count == 1 ? "" : "s") (isolation: \(Sandbox.isolation(on: Terminal.platform).rawValue))…")
                let start = Date()
                gradebook = try grader.grade(submissions)
                Terminal.progress(String(format: "Graded in %.0f s.", Date().timeIntervalSince(start)))
            }
            let csv = URL(fileURLWithPath: out)
            var kept = [try Gradebook.save(gradebook.csv(), to: csv)]
            let html = arguments[\.html].map { URL(fileURLWithPath: $0) }
            if let html {
                kept.append(try Gradebook.save(GradebookHTML.render(gradebook), to: html))
            }
            for row in gradebook.rows {
                Terminal.say(wrap(gradebook.summary(of: row), indent: "  ", width: Terminal.width))
            }
            let notes = gradebook.rows.filter { !$0.note.isEmpty }.count
            let tampered = gradebook.rows.filter { !$0.tampered.isEmpty }.count
            Terminal.say("\(gradebook.rows.count) students, \(gradebook.exercises.count) exercises, \(gradebook.maxTotal) points possible"
                + (tampered > 0 ? ", \(tampered) with changed protected files (put back before grading)" : "")
                + (notes > 0 ? ", \(notes) with a note" : "") + ".")
            Terminal.say("Gradebook: \(csv.standardizedFileURL.path)")
            if let html { Terminal.say("Report:    \(html.standardizedFileURL.path)") }
            for backup in kept.compactMap({ $0 }) {
                Terminal.say("The file that was there before is kept as \(backup.standardizedFileURL.path).")
            }
            return 0
        })
}
