import Foundation

/// The classroom layer, end to end, as `workbook selftest` proves it: export a student copy, make a
/// student's edits (a chapter solved, a race left in, a file that does not compile, a test file
/// changed), grade it with `check --classroom --json`, then grade three submissions with `grade` —
/// one of which tries to write outside its folder and to open a network connection.
struct ClassroomDrill: Sendable {
    var workbook: Workbook
    /// The `workbook` tool to run, as a teacher and a student would.
    var executable: URL
    var progress: @Sendable (String) -> Void

    /// The file the mischievous submission tries to create outside its folder.
    static let outside = URL(fileURLWithPath: "/tmp/workbook-classroom-drill-outside")

    func run() throws -> [FaultDrill.Outcome] {
        let number = Set(workbook.chapters.map(\.number))
        guard [1, 2, 3, 5].allSatisfy(number.contains) else {
            return [FaultDrill.Outcome(fault: "classroom drill", expected: "Chapters 1, 2, 3 and 5", actual: "missing", held: false)]
        }
        let base = workbook.layout.url(Layout.scratch(.selftestClassroom))
        let template = base.appendingPathComponent("template"), submissions = base.appendingPathComponent("submissions")
        for folder in [template, submissions] { try? FileManager.default.removeItem(at: folder) }
        let assignment = try ClassroomAssignment(workbook: workbook, chapters: [1, 2, 3, 5])
        progress("Classroom drill: exporting a student copy, grading a student's edits with check --classroom…")
        _ = try StudentCopy(workbook: workbook, assignment: assignment).write(to: template)

        // Ada: chapter 1 solved, chapter 2's tests edited, 3.1 does not compile, chapter 5 as handed out (5.1 races).
        let ada = submissions.appendingPathComponent("ada")
        try copyStudent(template, to: ada)
        for (chapter, exercise) in workbook.allExercises where chapter.number == 1 {
            try replace(Layout.exerciseFile(chapter, exercise), in: ada, with: Data(contentsOf: workbook.solutionFile(chapter, exercise)))
        }
        let two = try chapter(2), three = try chapter(3), one = try chapter(1)
        let test = Layout.testFolder(two) + "/\(two.exercises[0].suite).swift"
        try replace(test, in: ada, with: Data(contentsOf: ada.appendingPathComponent(test)) + Data("\n// an easier test\n".utf8))
        let broken = Layout.exerciseFile(three, three.exercises[0])
        try replace(broken, in: ada, with: Data(contentsOf: ada.appendingPathComponent(broken)) + Data("\nthis is not Swift {\n".utf8))

        var outcomes: [FaultDrill.Outcome] = []
        let five = try chapter(5)
        let expected: [String: String] = Dictionary(uniqueKeysWithValues: assignment.exercises(in: workbook).map { chapter, exercise, points in
            switch chapter.number {
            case 1: (exercise.id, "pass \(points)")
            case 2: (exercise.id, "tampered 0")
            case 3 where exercise == three.exercises[0]: (exercise.id, "compile 0")
            case 5 where exercise == five.exercises[0]: (exercise.id, "race 0")
            default: (exercise.id, "")
            }
        })
        let check = try ChildProcess.run(executable.path, ["check", "--classroom", "--json"],
                                         environment: ["WORKBOOK_ROOT": ada.path, "NO_COLOR": "1",
                                                       "WORKBOOK_CHECK_SCRATCH": base.appendingPathComponent("check-build").path],
                                         timeLimit: 1_800)
        let results = Self.json(in: check.output)
        for (id, want) in expected.sorted(by: { $0.key < $1.key }) where !want.isEmpty {
            let item = results?.classroom?.items.first { $0.exercise == id }
            let actual = item.map { "\($0.verdict.code) \($0.points)" } ?? "not graded"
            outcomes.append(.init(fault: "classroom check", expected: "\(id) \(want)", actual: "\(id) \(actual)", held: actual == want))
        }
        outcomes.append(.init(fault: "classroom check", expected: "exit 1, names the changed test",
                              actual: "\(check.termination.description)" + (results?.classroom?.violations.contains { $0.path == test } == true ? ", names the changed test" : ""),
                              held: check.termination == .exited(1) && results?.classroom?.violations.contains { $0.path == test } == true))

        // The batch: Ada again, Bo (chapter 1 solved), and Cy (mischief in 1.1).
        progress("Classroom drill: grading three submissions with grade (one tries to get out of its sandbox)…")
        let bo = submissions.appendingPathComponent("bo"), cy = submissions.appendingPathComponent("cy")
        try copyStudent(template, to: bo)
        try copyStudent(template, to: cy)
        for exercise in one.exercises {
            try replace(Layout.exerciseFile(one, exercise), in: bo, with: Data(contentsOf: workbook.solutionFile(one, exercise)))
        }
        try replace(Layout.exerciseFile(one, one.exercises[0]), in: cy,
                    with: Data(contentsOf: workbook.layout.url(Layout.classroomFixtures).appendingPathComponent("Mischief.swift")))
        try? FileManager.default.removeItem(at: Self.outside)
        let csv = base.appendingPathComponent("gradebook.csv"), html = base.appendingPathComponent("report.html")
        let before = try Self.snapshot(workbook.root, leaving: [base])
        let grade = try ChildProcess.run(executable.path, ["grade", submissions.path, "--out", csv.path, "--html", html.path],
                                         environment: ["WORKBOOK_ROOT": template.path, "NO_COLOR": "1"], timeLimit: 3_600)
        let book = (try? String(contentsOf: csv, encoding: .utf8)).flatMap { try? Gradebook(csv: $0) }
        func row(_ name: String) -> Gradebook.Row? { book?.rows.first { $0.student == name } }
        let adaRow = row("ada")
        let adaMatches = expected.allSatisfy { id, want in
            want.isEmpty || adaRow.map { "\($0.cell(id).verdict.code) \($0.cell(id).points)" } == want
        }
        outcomes.append(.init(fault: "classroom grade", expected: "exit 0, 3 rows, ada as check graded her",
                              actual: "\(grade.termination.description), \(book?.rows.count ?? 0) rows" + (adaMatches ? ", ada as check graded her" : ""),
                              held: grade.termination == .exited(0) && book?.rows.count == 3 && adaMatches))
        let boFull = one.exercises.allSatisfy { row("bo")?.cell($0.id).verdict == .pass } && row("bo")?.tampered.isEmpty == true
        outcomes.append(.init(fault: "classroom grade", expected: "bo: chapter 1 passed, nothing tampered",
                              actual: boFull ? "bo: chapter 1 passed, nothing tampered" : "bo: \(row("bo").map { "\($0.cells)" } ?? "no row")", held: boFull))
        // For the record (never a failure): one batch against a check of each submission.
        let timing = String(format: "grade: 3 submissions in %.0f s; check --classroom of one: %.0f s (cold builds both)",
                            grade.seconds, check.seconds)
        outcomes.append(.init(fault: "classroom timing", expected: timing, actual: timing, held: true))
        let page = (try? String(contentsOf: html, encoding: .utf8)) ?? ""
        outcomes.append(.init(fault: "classroom grade", expected: "an HTML report naming every student",
                              actual: ["ada", "bo", "cy"].allSatisfy(page.contains) ? "an HTML report naming every student" : "no such report", held: ["ada", "bo", "cy"].allSatisfy(page.contains)))

        // Cy's mischief: nothing outside the grading folder changed, no connection left the machine.
        let after = try Self.snapshot(workbook.root, leaving: [base])
        let mischief = Self.findNote(in: template.appendingPathComponent(Layout.scratch(.grade)))
        if Sandbox.isolation == .namespaces {
            let sealed = !FileManager.default.fileExists(atPath: Self.outside.path) && before == after
            outcomes.append(.init(fault: "classroom sandbox", expected: "nothing written outside, network closed",
                                  actual: mischief.map { "\($0)" + (before == after ? "" : ", the workbook changed") } ?? "the mischief never ran",
                                  held: sealed && mischief == "outside=refused network=closed"))
        } else {
            outcomes.append(.skipped("classroom sandbox", expected: "nothing written outside, network closed",
                                     because: "no user namespaces here: grade isolates by limits only"))
        }
        return outcomes
    }

    private func chapter(_ number: Int) throws -> Chapter {
        guard let found = workbook.chapters.first(where: { $0.number == number }) else {
            throw WorkbookError.toolFailed("The classroom drill needs Chapter \(number).")
        }
        return found
    }

    /// A student's clone of the template: its files, no builds.
    private func copyStudent(_ template: URL, to folder: URL) throws {
        try FileManager.default.copyItem(at: template, to: folder)
    }

    private func replace(_ relative: String, in folder: URL, with data: Data) throws {
        try data.write(to: folder.appendingPathComponent(relative))
    }

    /// The last JSON object in a child's output (progress lines go to standard error, mixed in).
    static func json(in output: String) -> ExercismResults? {
        guard let start = output.range(of: "{\n") else { return nil }
        return try? JSONDecoder().decode(ExercismResults.self, from: Data(output[start.lowerBound...].utf8))
    }

    /// What the mischief wrote about itself in its job's temporary folder.
    static func findNote(in folder: URL) -> String? {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return nil }
        for case let url as URL in walker where url.lastPathComponent == "mischief.txt" {
            return try? String(contentsOf: url, encoding: .utf8)
        }
        return nil
    }

    /// Paths and modification dates of the workbook's own files (outside `leaving` and builds), to
    /// show that grading changed none of them.
    static func snapshot(_ root: URL, leaving: [URL]) throws -> [String: Date] {
        var stamps: [String: Date] = [:]
        for top in Layout.buildInputs + [Layout.packageManifest] {
            let url = root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.contentModificationDateKey]) else { continue }
            for case let file as URL in walker where !leaving.contains(where: { file.path.hasPrefix($0.path) }) {
                stamps[file.path] = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            }
        }
        return stamps
    }
}
