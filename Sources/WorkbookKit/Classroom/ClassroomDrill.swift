import Foundation

/// The classroom layer, end to end, as `workbook selftest` proves it, with the `workbook` tool as a
/// teacher and students run it: a teacher who solved 1.1 in their working tree exports chapters 1, 2,
/// 3 and 5; the copy must hold the starters, exactly those chapters, the student README and the
/// hints without code. A student's edits (two chapters solved, one of their tests changed and
/// another gutted, a file that does not compile) are graded by `check --classroom`, by the
/// autograding workflow's own commands, and by `grade` — which must agree, point for point. Three
/// submissions are graded in a batch, one of which tries to write outside its folder and to reach a
/// listener the drill holds open on the loopback interface.
struct ClassroomDrill: Sendable {
    var workbook: Workbook
    /// The `workbook` tool to run, as a teacher and a student would.
    var executable: URL
    var progress: @Sendable (String) -> Void

    /// The file the mischievous submission tries to create outside its folder.
    static let outside = URL(fileURLWithPath: "/tmp/workbook-classroom-drill-outside")
    /// The line of the mischief fixture the drill writes its listener's port into.
    static let portLine = "let drillListenerPort: UInt16 = 0"
    /// The chapters the drill's teacher assigns (one is left out, to prove only these go along).
    static let assigned = [1, 2, 3, 5]

    func run() throws -> [FaultDrill.Outcome] {
        let number = Set(workbook.chapters.map(\.number))
        guard Self.assigned.allSatisfy(number.contains), workbook.chapters.count > Self.assigned.count else {
            return [FaultDrill.Outcome(fault: "classroom drill", expected: "Chapters 1, 2, 3 and 5, and one more", actual: "missing", held: false)]
        }
        let base = workbook.layout.url(Layout.scratch(.selftestClassroom))
        let teacher = base.appendingPathComponent("teacher"), template = base.appendingPathComponent("template")
        let submissions = base.appendingPathComponent("submissions"), workflow = base.appendingPathComponent("workflow")
        for folder in [template, submissions, workflow] { try? FileManager.default.removeItem(at: folder) }
        let one = try chapter(1), two = try chapter(2), three = try chapter(3), five = try chapter(5)
        var outcomes: [FaultDrill.Outcome] = []
        var timings: [String] = []

        // The teacher's working tree: the workbook, with 1.1 solved while trying it out.
        progress("Classroom drill: exporting chapters 1, 2, 3 and 5 from a working tree whose 1.1 is solved…")
        try PackageMirror(source: workbook.root, copy: teacher).sync()
        let latch = Layout.exerciseFile(one, one.exercises[0])
        try replace(latch, in: teacher, with: Data(contentsOf: workbook.solutionFile(one, one.exercises[0])))
        let export = try ChildProcess.run(
            executable.path, ["export", "--student", template.path, "--chapters", Self.assigned.map(String.init).joined(separator: ",")],
            environment: ["WORKBOOK_ROOT": teacher.path, "NO_COLOR": "1"], timeLimit: 600)
        outcomes += try exported(export, template)
        let assignment = try WorkbookLock.read(root: template).assignment
        let copy = try Workbook(root: template)

        // Ada: chapters 1 and 2 solved; a harmless comment in a chapter 2 test; 5.1's test replaced by
        // one that passes anything; 3.1 does not compile; chapter 5 otherwise as handed out (5.1 races).
        let ada = submissions.appendingPathComponent("ada")
        try copyStudent(template, to: ada)
        for exercise in one.exercises + two.exercises {
            let chapter = one.exercises.contains(exercise) ? one : two
            try replace(Layout.exerciseFile(chapter, exercise), in: ada, with: Data(contentsOf: workbook.solutionFile(chapter, exercise)))
        }
        let commented = Layout.testFolder(two) + "/\(two.exercises[0].suite).swift"
        try replace(commented, in: ada, with: Data(contentsOf: ada.appendingPathComponent(commented)) + Data("\n// an easier test\n".utf8))
        let gutted = Layout.testFolder(five) + "/\(five.exercises[0].suite).swift"
        try replace(gutted, in: ada, with: Data("""
            import \(five.name)
            import Testing
            import WorkbookTestSupport

            @Suite("\(five.exercises[0].id) made easy", .gradedUnderTSan)
            struct \(five.exercises[0].suite) {
                @Test("anything passes") func passes() {}
            }

            """.utf8))
        let broken = Layout.exerciseFile(three, three.exercises[0])
        try replace(broken, in: ada, with: Data(contentsOf: ada.appendingPathComponent(broken)) + Data("\nthis is not Swift {\n".utf8))
        let pushed = Self.git(ada, ["add", "-A"]) && Self.git(ada, ["-c", "user.name=Ada", "-c", "user.email=ada@localhost", "commit", "-q", "-m", "my work"])
        let changed = [commented, gutted].sorted()

        // Her own check: the chapters whose tests she changed are not graded there, and it says why.
        progress("Classroom drill: grading her edits with check --classroom, as she would…")
        let check = try ChildProcess.run(executable.path, ["check", "--classroom", "--json"],
                                         environment: ["WORKBOOK_ROOT": ada.path, "NO_COLOR": "1",
                                                       "WORKBOOK_CHECK_SCRATCH": base.appendingPathComponent("check-build").path],
                                         timeLimit: 1_800)
        timings.append(String(format: "check --classroom %.0f s", check.seconds))
        let results = Self.json(in: check.output)
        for (chapter, exercise, points) in assignment.exercises(in: copy) {
            let want = switch chapter.number {
            case 1: "pass \(points)"
            case 2, 5: "tampered 0"
            case 3 where exercise == three.exercises[0]: "compile 0"
            default: ""
            }
            guard !want.isEmpty else { continue }
            let item = results?.classroom?.items.first { $0.exercise == exercise.id }
            let actual = item.map { "\($0.verdict.code) \($0.points)" } ?? "not graded"
            outcomes.append(.init(fault: "classroom check", expected: "\(exercise.id) \(want)", actual: "\(exercise.id) \(actual)", held: actual == want))
        }
        let named = Set(results?.classroom?.violations.map(\.path) ?? []) == Set(changed)
        outcomes.append(.init(fault: "classroom check", expected: "exit 1, names the two changed tests",
                              actual: check.termination.description + (named ? ", names the two changed tests" : ", names \(results?.classroom?.violations.map(\.path) ?? [])"),
                              held: check.termination == .exited(1) && named))

        // The autograding workflow's own commands on her push: the restore step's script, then each
        // graded step's `workbook check --classroom <exercise>` (the tool already built, where the
        // workflow says `swift run workbook`; its warm-up build, whose result it ignores, left out).
        var stepPoints: [String: Int] = [:]
        if pushed {
            progress("Classroom drill: running the autograding workflow's steps on her push…")
            let clone = workflow.appendingPathComponent("ada")
            try FileManager.default.createDirectory(at: workflow, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ada, to: clone)
            let start = Date()
            let restore = try ChildProcess.run("sh", ["-ec", "cd \"$0\"\n" + ClassroomWorkflow.restoreScript, clone.path],
                                               environment: ["HOME": workflow.path, "GITHUB_WORKSPACE": clone.path], timeLimit: 120)
            let clean = (try? WorkbookLock.read(root: clone).verify(root: clone).isEmpty) == true
            outcomes.append(.init(fault: "classroom workflow", expected: "the restore step puts every protected file back",
                                  actual: restore.termination == .exited(0) && clean ? "the restore step puts every protected file back"
                                      : "\(restore.termination.description), lock \(clean ? "clean" : "still broken"): \(restore.output.suffix(300))",
                                  held: restore.termination == .exited(0) && clean))
            for (_, exercise, points) in assignment.exercises(in: copy) {
                let step = try ChildProcess.run(executable.path, ClassroomWorkflow.arguments(for: exercise.id),
                                                environment: ["WORKBOOK_ROOT": clone.path, "NO_COLOR": "1",
                                                              "WORKBOOK_CHECK_SCRATCH": workflow.appendingPathComponent("build").path],
                                                timeLimit: Double(ClassroomWorkflow.timeoutMinutes * 60))
                stepPoints[exercise.id] = step.termination == .exited(0) ? points : 0
            }
            timings.append(String(format: "workflow steps %.0f s", Date().timeIntervalSince(start)))
        } else {
            outcomes.append(.skipped("classroom workflow", expected: "the workflow's steps grade her push",
                                     because: "git is not installed here: the copy is no repository, so there is no template commit to restore from"))
        }

        // The batch: Ada again, Bo (chapter 1 solved), and Cy (mischief in 1.1).
        progress("Classroom drill: grading three submissions with grade (one tries to get out of its sandbox)…")
        let bo = submissions.appendingPathComponent("bo"), cy = submissions.appendingPathComponent("cy")
        try copyStudent(template, to: bo)
        try copyStudent(template, to: cy)
        for exercise in one.exercises {
            try replace(Layout.exerciseFile(one, exercise), in: bo, with: Data(contentsOf: workbook.solutionFile(one, exercise)))
        }
        let listener = try LoopbackListener()
        defer { listener.stop() }
        let reachable = listener.probe()
        let fixture = try String(contentsOf: workbook.layout.url(Layout.classroomFixtures).appendingPathComponent("Mischief.swift"), encoding: .utf8)
        guard fixture.contains(Self.portLine) else {
            throw WorkbookError.toolFailed("The classroom drill's Mischief.swift has no line `\(Self.portLine)` to write the listener's port into.")
        }
        try replace(latch, in: cy, with: Data(fixture.replacingOccurrences(of: Self.portLine, with: "let drillListenerPort: UInt16 = \(listener.port)").utf8))
        try? FileManager.default.removeItem(at: Self.outside)
        let csv = base.appendingPathComponent("gradebook.csv"), html = base.appendingPathComponent("report.html")
        for file in [csv, html] { try? FileManager.default.removeItem(at: file) }
        let before = try Self.snapshot(workbook.root, leaving: [base])
        let grade = try ChildProcess.run(executable.path, ["grade", submissions.path, "--out", csv.path, "--html", html.path],
                                         environment: ["WORKBOOK_ROOT": template.path, "NO_COLOR": "1"], timeLimit: 3_600)
        timings.append(String(format: "grade of 3 submissions %.0f s", grade.seconds))
        let book = (try? String(contentsOf: csv, encoding: .utf8)).flatMap { try? Gradebook(csv: $0) }
        func row(_ name: String) -> Gradebook.Row? { book?.rows.first { $0.student == name } }
        outcomes.append(.init(fault: "classroom grade", expected: "exit 0, 3 rows, a line per student, where the CSV and the HTML are",
                              actual: "\(grade.termination.description), \(book?.rows.count ?? 0) rows"
                                  + (["ada: ", "bo: ", "cy: ", csv.path, html.path].allSatisfy(grade.output.contains) ? ", a line per student, where the CSV and the HTML are" : ""),
                              held: grade.termination == .exited(0) && book?.rows.count == 3
                                  && ["ada: ", "bo: ", "cy: ", csv.path, html.path].allSatisfy(grade.output.contains)))

        // Ada's points come from the restored tests — chapters 1 and 2 full, 3.1 and 5.1 nothing — the
        // same as the workflow's steps gave, and her changed tests are named beside them.
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
        let cells = adaRow.map { row in assignment.exercises(in: copy).map { "\($0.exercise.id) \(row.cell($0.exercise.id).verdict.code) \(row.cell($0.exercise.id).points)" } } ?? []
        outcomes.append(.init(fault: "classroom grade", expected: "ada: graded on the original tests (1, 2 passed; 3.1 compile; 5.1 race)",
                              actual: fromOriginals ? "ada: graded on the original tests (1, 2 passed; 3.1 compile; 5.1 race)" : "ada: \(cells.joined(separator: ", "))",
                              held: fromOriginals))
        outcomes.append(.init(fault: "classroom grade", expected: "ada: the changed tests named beside her grade",
                              actual: "ada: " + (adaRow?.tampered.joined(separator: ", ") ?? "no row"), held: adaRow?.tampered == changed))
        if pushed {
            let mismatches = stepPoints.keys.sorted().compactMap { id -> String? in
                let graded = adaRow?.cell(id).points
                return graded == stepPoints[id] ? nil : "\(id): grade \(graded.map(String.init) ?? "–"), workflow \(stepPoints[id] ?? 0)"
            }
            let same = !stepPoints.isEmpty && mismatches.isEmpty
            outcomes.append(.init(fault: "classroom workflow", expected: "ada: the same points from grade and from the workflow's steps",
                                  actual: same ? "ada: the same points from grade and from the workflow's steps (\(stepPoints.values.reduce(0, +)) of \(assignment.maxScore))"
                                      : "ada: " + mismatches.joined(separator: "; "),
                                  held: same))
        }
        let boFull = one.exercises.allSatisfy { row("bo")?.cell($0.id).verdict == .pass } && row("bo")?.tampered.isEmpty == true
        outcomes.append(.init(fault: "classroom grade", expected: "bo: chapter 1 passed, nothing changed",
                              actual: boFull ? "bo: chapter 1 passed, nothing changed" : "bo: \(row("bo").map { "\($0.cells)" } ?? "no row")", held: boFull))
        let page = (try? String(contentsOf: html, encoding: .utf8)) ?? ""
        let reason = adaRow?.cell(three.exercises[0].id).reason ?? ""
        let pageHolds = ["ada", "bo", "cy"].allSatisfy(page.contains) && !reason.isEmpty && page.contains(markupEscaped(reason))
        outcomes.append(.init(fault: "classroom grade", expected: "an HTML report naming every student, with each failing cell's reason",
                              actual: pageHolds ? "an HTML report naming every student, with each failing cell's reason" : "no such report",
                              held: pageHolds))

        // Cy's mischief: nothing outside the grading folder changed, and the listener the drill holds
        // open on 127.0.0.1 — reachable from out here — was never reached from inside the sandbox.
        let after = try Self.snapshot(workbook.root, leaving: [base])
        let mischief = Self.findNote(in: template.appendingPathComponent(Layout.scratch(.grade)))
        if Sandbox.isolation == .namespaces {
            let sealed = !FileManager.default.fileExists(atPath: Self.outside.path) && before == after
            outcomes.append(.init(fault: "classroom sandbox", expected: "nothing written outside its folder",
                                  actual: mischief.map { "\($0)" + (before == after ? "" : ", the workbook changed") } ?? "the mischief never ran",
                                  held: sealed && mischief?.hasPrefix("outside=refused ") == true))
            let closed = reachable && listener.connections == 1 && mischief?.hasSuffix(" network=closed") == true
            outcomes.append(.init(fault: "classroom sandbox", expected: "127.0.0.1:\(listener.port) reached from outside, never from the sandbox",
                                  actual: "reached from outside: \(reachable ? "yes" : "no"), connections: \(listener.connections), the sandboxed code: \(mischief ?? "never ran")",
                                  held: closed))
        } else {
            outcomes.append(.skipped("classroom sandbox", expected: "nothing written outside, the loopback listener never reached",
                                     because: "no user namespaces here: grade isolates by limits only"))
        }
        // For the record, never a pass or a failure.
        progress("Classroom drill timings (cold builds): " + timings.joined(separator: "; ") + ".")
        return outcomes
    }

    /// What the export did: a starter for the teacher's solved 1.1 (and said so), exactly the
    /// assigned chapters, the student README, the hints without code.
    private func exported(_ export: ChildResult, _ template: URL) throws -> [FaultDrill.Outcome] {
        let one = try chapter(1), exercise = one.exercises[0]
        let said = export.termination == .exited(0) && export.output.contains("your \(exercise.id) differs from the starter")
        var outcomes = [FaultDrill.Outcome(fault: "classroom export", expected: "exit 0, says the working tree's \(exercise.id) was not handed out",
                                           actual: said ? "exit 0, says the working tree's \(exercise.id) was not handed out"
                                               : "\(export.termination.description): \(export.output.suffix(300))",
                                           held: said)]
        let handedOut = FileManager.default.contents(atPath: template.appendingPathComponent(Layout.exerciseFile(one, exercise)).path)
        let starter = try Starters(workbook: workbook).starter(one, exercise, commit: nil)
        let isStarter = handedOut == starter && handedOut != FileManager.default.contents(atPath: workbook.solutionFile(one, exercise).path)
        outcomes.append(.init(fault: "classroom export", expected: "\(exercise.id) in the copy is its starter",
                              actual: isStarter ? "\(exercise.id) in the copy is its starter" : "\(exercise.id) in the copy is not its starter",
                              held: isStarter))

        let copy = try? Workbook(root: template)
        let chapters = copy?.chapters.map(\.number) ?? []
        let fm = FileManager.default
        let tests = workbook.chapters.filter { fm.fileExists(atPath: template.appendingPathComponent(Layout.testFolder($0)).path) }.map(\.number)
        let kept = workbook.chapters.filter { chapter in
            chapter.exercises.contains { fm.fileExists(atPath: template.appendingPathComponent(Layout.starterCopy(chapter, $0)).path) }
        }.map(\.number)
        let extra = [SourceSet.solutions.folder, "\(Layout.testsFolder)/NearMisses", "\(Layout.testsFolder)/WorkbookKitTests"]
            .filter { fm.fileExists(atPath: template.appendingPathComponent($0).path) }
        let exact = chapters == Self.assigned && tests == Self.assigned && kept == Self.assigned && extra.isEmpty
        outcomes.append(.init(fault: "classroom export", expected: "exactly chapters \(Self.assigned.map(String.init).joined(separator: ", ")): exercises, tests, starters",
                              actual: exact ? "exactly chapters \(Self.assigned.map(String.init).joined(separator: ", ")): exercises, tests, starters"
                                  : "exercises \(chapters), tests \(tests), starters \(kept)" + (extra.isEmpty ? "" : ", and \(extra.joined(separator: ", "))"),
                              held: exact))

        // What a student sees first: `workbook` in a fresh clone.
        let clone = template.deletingLastPathComponent().appendingPathComponent("first-look")
        try? fm.removeItem(at: clone)
        try copyStudent(template, to: clone)
        defer { try? fm.removeItem(at: clone) }
        let look = try ChildProcess.run(executable.path, [], environment: ["WORKBOOK_ROOT": clone.path, "NO_COLOR": "1"], timeLimit: 120)
        let lock = try WorkbookLock.read(root: template)
        let count = lock.assignment.points.count
        let listed = workbook.chapters.filter { look.output.contains("Chapter \($0.number) — ") }.map(\.number)
        let shows = look.output.contains("0 of \(count) exercises done") && listed == Self.assigned
            && look.output.contains("worth \(lock.assignment.maxScore) points")
        outcomes.append(.init(fault: "classroom export", expected: "`workbook` in a clone: 0 of \(count) done, chapters \(Self.assigned.map(String.init).joined(separator: ", ")), \(lock.assignment.maxScore) points",
                              actual: shows ? "`workbook` in a clone: 0 of \(count) done, chapters \(Self.assigned.map(String.init).joined(separator: ", ")), \(lock.assignment.maxScore) points"
                                  : "`workbook` in a clone lists chapters \(listed): \(look.output.prefix(200))",
                              held: shows))

        let readme = (try? String(contentsOf: template.appendingPathComponent(StudentCopy.readmeName), encoding: .utf8)) ?? ""
        let files = (copy?.allExercises ?? []).map { Layout.exerciseFile($0.chapter, $0.exercise) }
        let forStudents = copy.map { readme == StudentReadme.render(assignment: lock.assignment, workbook: $0, hints: .default) } == true
            && files.allSatisfy(readme.contains) && !["selftest", ".ci/", "near miss"].contains(where: readme.lowercased().contains)
        outcomes.append(.init(fault: "classroom export", expected: "the README is the students': their files and points, nothing of the maintainers'",
                              actual: forStudents ? "the README is the students': their files and points, nothing of the maintainers'"
                                  : "the README: \(readme.prefix(80))",
                              held: forStudents))

        let hints = ExportedHints.read(root: template)
        let raw = (try? String(contentsOf: template.appendingPathComponent(ExportedHints.fileName), encoding: .utf8)) ?? ""
        let ids = (copy?.allExercises ?? []).map(\.exercise.id)
        let nudges = hints?.level == .nudges && hints?.exerciseIDs == ids.sorted() && (copy?.allExercises ?? []).allSatisfy { chapter, exercise in
            let full = workbook.hints(for: exercise, in: workbook.chapters.first { $0.number == chapter.number } ?? chapter)
            let given = hints?.ladder(for: exercise.id) ?? []
            return !given.isEmpty && given == full.filter { !$0.showsCode } && given.count < full.count
                && !given.contains { raw.contains($0.text.prefix(40)) }
        }
        let plain = (fm.enumerator(atPath: template.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix("/" + HintFile.name) || $0 == HintFile.name }
        outcomes.append(.init(fault: "classroom export", expected: "hints: the steps without code of exactly the assigned exercises, not in plain text",
                              actual: nudges && plain.isEmpty ? "hints: the steps without code of exactly the assigned exercises, not in plain text"
                                  : "hints: \(hints.map { "\($0.level.rawValue) for \($0.exerciseIDs.joined(separator: ", "))" } ?? "none")" + (plain.isEmpty ? "" : ", and \(plain.joined(separator: ", "))"),
                              held: nudges && plain.isEmpty))
        return outcomes
    }

    private func chapter(_ number: Int) throws -> Chapter {
        guard let found = workbook.chapters.first(where: { $0.number == number }) else {
            throw WorkbookError.toolFailed("The classroom drill needs Chapter \(number).")
        }
        return found
    }

    /// A student's clone of the template: its files and its git history, no builds.
    private func copyStudent(_ template: URL, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: template, to: folder)
    }

    private func replace(_ relative: String, in folder: URL, with data: Data) throws {
        try data.write(to: folder.appendingPathComponent(relative))
    }

    /// Runs git in `folder`; `true` when it succeeded.
    private static func git(_ folder: URL, _ arguments: [String]) -> Bool {
        (try? ChildProcess.run("git", ["-C", folder.path] + arguments, timeLimit: 60))?.termination == .exited(0)
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
