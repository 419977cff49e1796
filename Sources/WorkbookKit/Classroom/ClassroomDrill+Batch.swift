import Foundation

extension ClassroomDrill {
    /// The autograding workflow's own commands on Ada's push: the restore step's script, then each
    /// graded step's `workbook check --classroom <exercise>` (the tool already built, where the
    /// workflow says `swift run workbook`; its warm-up build, whose result it ignores, left out). The
    /// points each step gave, by exercise id; `nil` when there is no git to make the push with.
    func workflowSteps(on ada: Push, _ assignment: ClassroomAssignment, _ copy: Workbook,
                       timings: inout [String]) throws -> (outcomes: [FaultDrill.Outcome], points: [String: Int]?) {
        guard ada.committed else {
            return ([.skipped("classroom workflow", expected: "the workflow's steps grade her push",
                              because: "git is not installed here: the copy is no repository, so there is no template commit to restore from")], nil)
        }
        progress("Classroom drill: running the autograding workflow's steps on her push…")
        let workflow = base.appendingPathComponent("workflow"), clone = workflow.appendingPathComponent("ada")
        try FileManager.default.createDirectory(at: workflow, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ada.folder, to: clone)
        let start = Date()
        let restore = try ChildProcess.run("sh", ["-ec", "cd \"$0\"\n" + ClassroomWorkflow.restoreScript, clone.path],
                                           environment: ["HOME": workflow.path, "GITHUB_WORKSPACE": clone.path], timeLimit: 120)
        let clean = (try? WorkbookLock.read(root: clone).verify(root: clone).isEmpty) == true
        let notes = FileManager.default.fileExists(atPath: clone.appendingPathComponent(Layout.chapterFolder(try chapter(1)) + "/Notes.swift").path)
        let outcome = Self.outcome("classroom workflow", "the restore step puts every protected file back and her notes away",
                                   held: restore.termination == .exited(0) && clean && !notes,
                                   otherwise: "\(restore.termination.description), lock \(clean ? "clean" : "still broken"), notes \(notes ? "kept" : "gone"): \(restore.output.suffix(300))")
        var points: [String: Int] = [:]
        for (_, exercise, worth) in assignment.exercises(in: copy) {
            let step = try ChildProcess.run(executable.path, ClassroomWorkflow.arguments(for: exercise.id),
                                            environment: ["WORKBOOK_ROOT": clone.path, "NO_COLOR": "1",
                                                          "WORKBOOK_CHECK_SCRATCH": workflow.appendingPathComponent("build").path],
                                            timeLimit: Double(ClassroomWorkflow.timeoutMinutes * 60))
            points[exercise.id] = step.termination == .exited(0) ? worth : 0
        }
        timings.append(String(format: "workflow steps %.0f s", Date().timeIntervalSince(start)))
        return ([outcome], points)
    }

    /// The batch: Ada's push again, Bo (chapter 1 solved) and Cy (mischief in 1.1), graded by
    /// `grade` — Ada's points as the workflow's steps gave them, her changed tests named beside them
    /// — while the drill holds a listener open on 127.0.0.1 that Cy's code must not reach.
    func batch(_ ada: Push, workflowPoints: [String: Int]?, _ assignment: ClassroomAssignment, _ copy: Workbook,
               timings: inout [String]) throws -> [FaultDrill.Outcome] {
        progress("Classroom drill: grading three submissions with grade (one tries to get out of its sandbox)…")
        let one = try chapter(1), three = try chapter(3), five = try chapter(5)
        let bo = submissions.appendingPathComponent("bo"), cy = submissions.appendingPathComponent("cy")
        try copyStudent(to: bo)
        try copyStudent(to: cy)
        for exercise in one.exercises {
            try replace(Layout.exerciseFile(one, exercise), in: bo, with: Data(contentsOf: workbook.solutionFile(one, exercise)))
        }
        let listener = try LoopbackListener()
        defer { listener.stop() }
        let reachable = listener.probe()
        let fixture = try String(contentsOf: workbook.layout.url(Layout.classroomFixtures).appendingPathComponent("Mischief.swift"), encoding: .utf8)
        guard fixture.contains(Self.portLine) else {
            throw WorkbookError.drillSetUp("the classroom drill's Mischief.swift has no line `\(Self.portLine)` to write the listener's port into")
        }
        try replace(Layout.exerciseFile(one, one.exercises[0]), in: cy,
                    with: Data(fixture.replacingOccurrences(of: Self.portLine, with: "let drillListenerPort: UInt16 = \(listener.port)").utf8))
        try? FileManager.default.removeItem(at: Self.outside)
        let csv = base.appendingPathComponent("gradebook.csv"), html = base.appendingPathComponent("report.html")
        for file in [csv, html] { try? FileManager.default.removeItem(at: file) }
        let before = try Self.snapshot(workbook.root, leaving: [base])
        let grade = try ChildProcess.run(executable.path, ["grade", submissions.path, "--out", csv.path, "--html", html.path],
                                         environment: ["WORKBOOK_ROOT": template.path, "NO_COLOR": "1"], timeLimit: 3_600)
        timings.append(String(format: "grade of 3 submissions %.0f s", grade.seconds))
        let book = (try? String(contentsOf: csv, encoding: .utf8)).flatMap { try? Gradebook(csv: $0) }
        func row(_ name: String) -> Gradebook.Row? { book?.rows.first { $0.student == name } }
        let said = ["ada: ", "bo: ", "cy: ", csv.path, html.path].allSatisfy(grade.output.contains)
        var outcomes = [Self.outcome("classroom grade", "exit 0, 3 rows, a line per student, where the CSV and the HTML are",
                                     held: grade.termination == .exited(0) && book?.rows.count == 3 && said,
                                     otherwise: "\(grade.termination.description), \(book?.rows.count ?? 0) rows, \(said ? "" : "not ")said where")]

        // Ada's points come from her exercise files and the original tests — chapters 1 and 2 full
        // (her notes left out), 3.1 and 5.1 nothing — as the workflow's steps gave them.
        let adaRow = row("ada")
        let fromOriginals = assignment.exercises(in: copy).allSatisfy { chapter, exercise, points in
            guard let cell = adaRow?.cell(exercise.id) else { return false }
            return switch chapter.number {
            case 1, 2: cell.verdict == .pass && cell.points == points
            case 3 where exercise == three.exercises[0]: cell.verdict == .failed(.compile)
            case 5 where exercise == five.exercises[0]: cell.verdict == .failed(.race)
            default: cell.points == 0
            }
        }
        let cells = assignment.exercises(in: copy).map { "\($0.exercise.id) \(adaRow?.cell($0.exercise.id).verdict.code ?? "–")" }
        outcomes.append(Self.outcome("classroom grade", "ada: graded on her exercise files and the original tests (1, 2 passed; 3.1 compile; 5.1 race)",
                                     held: fromOriginals, otherwise: "ada: \(cells.joined(separator: ", "))"))
        outcomes.append(Self.outcome("classroom grade", "ada: the changed tests named beside her grade", held: adaRow?.tampered == ada.changed,
                                     otherwise: "ada: " + (adaRow?.tampered.joined(separator: ", ") ?? "no row")))
        if let workflowPoints {
            let mismatches = workflowPoints.keys.sorted().compactMap { id -> String? in
                let graded = adaRow?.cell(id).points
                return graded == workflowPoints[id] ? nil : "\(id): grade \(graded.map(String.init) ?? "–"), workflow \(workflowPoints[id] ?? 0)"
            }
            outcomes.append(Self.outcome("classroom workflow", "ada: the same points from grade and from the workflow's steps",
                                         held: !workflowPoints.isEmpty && mismatches.isEmpty, otherwise: "ada: " + mismatches.joined(separator: "; ")))
        }
        let boFull = one.exercises.allSatisfy { row("bo")?.cell($0.id).verdict == .pass } && row("bo")?.tampered.isEmpty == true
        outcomes.append(Self.outcome("classroom grade", "bo: chapter 1 passed, nothing changed", held: boFull,
                                     otherwise: "bo: \(row("bo").map { "\($0.cells)" } ?? "no row")"))
        let page = (try? String(contentsOf: html, encoding: .utf8)) ?? ""
        let reason = adaRow?.cell(three.exercises[0].id).reason ?? ""
        outcomes.append(Self.outcome("classroom grade", "an HTML report naming every student, with each failing cell's reason",
                                     held: ["ada", "bo", "cy"].allSatisfy(page.contains) && !reason.isEmpty && page.contains(markupEscaped(reason)),
                                     otherwise: "no such report"))

        // Cy's mischief: nothing outside the grading folder changed, and the listener — reachable from
        // out here — was never reached from inside the sandbox.
        let after = try Self.snapshot(workbook.root, leaving: [base])
        let mischief = Self.findNote(in: template.appendingPathComponent(Layout.scratch(.grade)))
        guard Sandbox.isolation == .namespaces else {
            return outcomes + [.skipped("classroom sandbox", expected: "nothing written outside, the loopback listener never reached",
                                        because: "no user namespaces here: grade isolates by limits only")]
        }
        let sealed = !FileManager.default.fileExists(atPath: Self.outside.path) && before == after
        outcomes.append(Self.outcome("classroom sandbox", "nothing written outside its folder",
                                     held: sealed && mischief?.hasPrefix("outside=refused ") == true,
                                     otherwise: (mischief ?? "the mischief never ran") + (before == after ? "" : ", the workbook changed")))
        outcomes.append(Self.outcome("classroom sandbox", "127.0.0.1:\(listener.port) reached from outside, never from the sandbox",
                                     held: reachable && listener.connections == 1 && mischief?.hasSuffix(" network=closed") == true,
                                     otherwise: "reached from outside: \(reachable ? "yes" : "no"), connections: \(listener.connections), the sandboxed code: \(mischief ?? "never ran")"))
        return outcomes
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
