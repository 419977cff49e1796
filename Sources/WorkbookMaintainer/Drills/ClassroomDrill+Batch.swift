import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension ClassroomDrill {
    /// The autograding workflow's own commands on Ada's push: the restore step's script, then each
    /// graded step's `workbook check --classroom <exercise>` (the tool already built, where the
    /// workflow says `swift run workbook`; its warm-up build, whose result it ignores, left out). The
    /// points each step gave, by exercise id; `nil` when there is no git to make the push with.
    /// `notes`: her rows, whose ``Change/notesBeside`` files the restore step must take away.
    func workflowSteps(on ada: Push, notes rows: [Item], _ assignment: ClassroomAssignment, _ copy: Workbook,
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
        let notes = rows.filter { $0.row.changes.contains(.notesBeside) }
            .contains { FileManager.default.fileExists(atPath: clone.appendingPathComponent(Self.notes(beside: $0.chapter)).path) }
        let outcome = Self.outcome("classroom workflow", "the restore step puts every protected file back and her notes away",
                                   held: restore.termination == .exited(0) && clean && !notes,
                                   otherwise: "\(restore.termination.description), lock \(clean ? "clean" : "still broken"), notes \(notes ? "kept" : "gone"): \(restore.output.suffix(300))")
        var points: [String: Int] = [:]
        for (_, exercise, worth) in assignment.exercises(in: copy) {
            let step = try ChildProcess.run(executable.path, ClassroomWorkflow.arguments(for: exercise.id),
                                            environment: [WorkbookEnvironment.Name.root: clone.path, WorkbookEnvironment.Name.noColor: "1",
                                                          WorkbookEnvironment.Name.checkScratch: workflow.appendingPathComponent("build").path],
                                            timeLimit: Double(ClassroomWorkflow.timeoutMinutes * 60))
            points[exercise.id] = step.termination == .exited(0) ? worth : 0
        }
        timings.append(String(format: "workflow steps %.0f s", Date().timeIntervalSince(start)))
        return ([outcome], points)
    }

    /// The batch: Ada's push again, Bo and Cy (their rows' changes: Bo's solutions, Cy's mischief),
    /// graded by `grade` — every row's ``Row/grade`` held, Ada's points as the workflow's steps gave
    /// them, her changed tests named beside them — while the drill holds a listener open on 127.0.0.1
    /// that Cy's code must not reach.
    func batch(_ ada: Push, _ items: [Item], workflowPoints: [String: Int]?, _ assignment: ClassroomAssignment, _ copy: Workbook,
               timings: inout [String]) throws -> [FaultDrill.Outcome] {
        progress("Classroom drill: grading three submissions with grade (one tries to get out of its sandbox)…")
        let listener = try LoopbackListener()
        defer { listener.stop() }
        let reachable = listener.probe()
        for student in [Student.bo, .cy] {
            let folder = submissions.appendingPathComponent(student.rawValue)
            try copyStudent(to: folder)
            for item in items where item.row.student == student { _ = try apply(item, in: folder, port: listener.port) }
        }
        try? FileManager.default.removeItem(at: Self.outside)
        let csv = base.appendingPathComponent("gradebook.csv"), html = base.appendingPathComponent("report.html")
        for file in [csv, html] { try? FileManager.default.removeItem(at: file) }
        let before = try Self.snapshot(workbook.root, leaving: [base])
        let grade = try ChildProcess.run(executable.path, ["grade", submissions.path, "--out", csv.path, "--html", html.path],
                                         environment: [WorkbookEnvironment.Name.root: template.path, WorkbookEnvironment.Name.noColor: "1"], timeLimit: 3_600)
        timings.append(String(format: "grade of 3 submissions %.0f s", grade.seconds))
        let book = (try? String(contentsOf: csv, encoding: .utf8)).flatMap { try? Gradebook(csv: $0) }
        func row(_ student: Student) -> Gradebook.Row? { book?.rows.first { $0.student == student.rawValue } }
        let said = ["ada: ", "bo: ", "cy: ", csv.path, html.path].allSatisfy(grade.output.contains)
        var outcomes = [Self.outcome("classroom grade", "exit 0, 3 rows, a line per student, where the CSV and the HTML are",
                                     held: grade.termination == .exited(0) && book?.rows.count == 3 && said,
                                     otherwise: "\(grade.termination.description), \(book?.rows.count ?? 0) rows, \(said ? "" : "not ")said where")]

        // Ada's points come from her exercise files and the original tests (her notes left out) —
        // each of her rows as its `grade` says, every other exercise nothing — as the workflow's
        // steps gave them.
        let adaRow = row(.ada)
        let expected = Dictionary(items.filter { $0.row.student == .ada }.map { ($0.exercise.id, $0.row.grade) }) { $1 }
        let fromOriginals = assignment.exercises(in: copy).allSatisfy { _, exercise, points in
            guard let cell = adaRow?.cell(exercise.id) else { return false }
            return switch expected[exercise.id] ?? nil {
            case .pass?: cell.verdict == .pass && cell.points == points
            case let verdict?: cell.verdict == verdict
            case nil: cell.points == 0
            }
        }
        let wants = expected.sorted { $0.key < $1.key }.compactMap { id, verdict in verdict.map { "\(id) \($0.code)" } }
        let cells = assignment.exercises(in: copy).map { "\($0.exercise.id) \(adaRow?.cell($0.exercise.id).verdict.code ?? "–")" }
        outcomes.append(Self.outcome("classroom grade", "ada: graded on her exercise files and the original tests (\(wants.joined(separator: ", ")); the rest 0 points)",
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
        let bos = items.compactMap { item in item.row.student == .bo ? item.row.grade.map { (item.exercise.id, $0) } : nil }
        let boHeld = bos.allSatisfy { row(.bo)?.cell($0.0).verdict == $0.1 } && row(.bo)?.tampered.isEmpty == true
        outcomes.append(Self.outcome("classroom grade", "bo: \(bos.map { "\($0.0) \($0.1.code)" }.joined(separator: ", ")), nothing changed",
                                     held: boHeld, otherwise: "bo: \(row(.bo).map { "\($0.cells)" } ?? "no row")"))
        let page = (try? String(contentsOf: html, encoding: .utf8)) ?? ""
        let failing = items.first { $0.row.student == .ada && ($0.row.grade.map { $0 != .pass } ?? false) }
        let reason = failing.flatMap { adaRow?.cell($0.exercise.id).reason } ?? ""
        outcomes.append(Self.outcome("classroom grade", "an HTML report naming every student, with each failing cell's reason",
                                     held: ["ada", "bo", "cy"].allSatisfy(page.contains) && !reason.isEmpty && page.contains(markupEscaped(reason)),
                                     otherwise: "no such report"))

        // Cy's mischief: nothing outside the grading folder changed, and the listener — reachable from
        // out here — was never reached from inside the sandbox.
        let after = try Self.snapshot(workbook.root, leaving: [base])
        let mischief = Self.findNote(in: template.appendingPathComponent(Layout.scratch(.grade)))
        guard Sandbox.isolation(on: platform) == .namespaces else {
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
