import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// The classroom layer, end to end, as `workbook selftest` proves it, with the `workbook` tool as a
/// teacher and students run it, driven by the table ``rows``: a teacher who solved an exercise in their
/// working tree exports the chapters the rows name; the copy must hold the starters, exactly those
/// chapters, the student README and the hints without code. A student's push (exercises solved, a
/// file added beside them, one of her tests changed and another gutted, a file that does not compile)
/// is graded by her own `check --classroom`, by the autograding workflow's own commands, and by
/// `grade` — the last two must agree point for point. Three submissions are graded in a batch, one of
/// which tries to write outside its folder and to reach a listener the drill holds open on the
/// loopback interface.
struct ClassroomDrill: Sendable {
    var workbook: Workbook
    /// Whose sandbox `workbook grade` runs the submissions in here (``Sandbox``).
    var platform: Platform
    /// The `workbook` tool to run, as a teacher and a student would.
    var executable: URL
    var progress: @Sendable (String) -> Void

    /// The file the mischievous submission tries to create outside its folder.
    static let outside = URL(fileURLWithPath: "/tmp/workbook-classroom-drill-outside")
    /// The line of the mischief fixture the drill writes its listener's port into.
    static let portLine = "let drillListenerPort: UInt16 = 0"

    /// Where the drill works: the teacher's tree, the template, the submissions, the workflow's clone.
    var base: URL { workbook.layout.url(Layout.scratch(.selftestClassroom)) }
    var template: URL { base.appendingPathComponent("template") }
    var submissions: URL { base.appendingPathComponent("submissions") }

    /// Ada's push: where it is, the protected files it changed, whether it was committed (git found).
    struct Push {
        var folder: URL
        var changed: [String]
        var committed: Bool
    }

    /// Runs the drill over ``rows``; a row whose exercise the workbook lacks is a failed outcome, and
    /// the rest run without it.
    func run() throws -> [FaultDrill.Outcome] {
        let (items, missing) = Self.resolve(Self.rows, in: workbook)
        let assigned = Self.assigned(items)
        guard !assigned.isEmpty, workbook.chapters.count > assigned.count else {
            return missing + [Self.outcome("classroom drill", "the chapters its rows name, and one more to leave out", held: false,
                                           otherwise: "chapters \(workbook.chapters.map(\.number)), the rows name \(assigned)")]
        }
        func rows(of student: Student) -> [Item] { items.filter { $0.row.student == student } }
        let teacher = base.appendingPathComponent("teacher")
        for folder in [template, submissions, base.appendingPathComponent("workflow")] { try? FileManager.default.removeItem(at: folder) }
        var timings: [String] = []

        // The teacher's working tree: the workbook, with the teacher's rows (1.1 solved while trying it out).
        let chapters = assigned.map(String.init)
        progress("Classroom drill: exporting chapters \(chapters.joined(separator: ", ")) from a working tree with exercises solved…")
        try PackageMirror(source: workbook.root, copy: teacher).sync()
        for item in rows(of: .teacher) { _ = try apply(item, in: teacher) }
        let export = try ChildProcess.run(
            executable.path, ["export", "--student", template.path, "--chapters", chapters.joined(separator: ",")],
            environment: [WorkbookEnvironment.Name.root: teacher.path, WorkbookEnvironment.Name.noColor: "1"], timeLimit: 600)
        var outcomes = try missing + exported(export, solved: rows(of: .teacher), assigned: assigned)
        let assignment = try WorkbookLock.read(root: template).assignment
        let copy = try Workbook(root: template)

        let ada = try push(rows(of: .ada))
        outcomes += try adasOwnCheck(ada, rows(of: .ada), timings: &timings)
        let steps = try workflowSteps(on: ada, notes: rows(of: .ada), assignment, copy, timings: &timings)
        outcomes += steps.outcomes
        outcomes += try batch(ada, items, workflowPoints: steps.points, assignment, copy, timings: &timings)
        // For the record, never a pass or a failure.
        progress("Classroom drill timings (cold builds): " + timings.joined(separator: "; ") + ".")
        return outcomes
    }

    /// Ada's push: her rows' changes in a student's clone, committed, as a push is.
    private func push(_ rows: [Item]) throws -> Push {
        let ada = submissions.appendingPathComponent(Student.ada.rawValue)
        try copyStudent(to: ada)
        var changed: [String] = []
        for item in rows { changed += try apply(item, in: ada) }
        let committed = Self.git(ada, ["add", "-A"])
            && Self.git(ada, ["-c", "user.name=Ada", "-c", "user.email=ada@localhost", "commit", "-q", "-m", "my work"])
        return Push(folder: ada, changed: changed.sorted(), committed: committed)
    }

    /// Her own `check --classroom`: each of her rows as its ``Row/check`` says (her notes break
    /// chapter 1's build there, the chapters whose tests she changed are not graded there), with the
    /// changed files named.
    private func adasOwnCheck(_ ada: Push, _ rows: [Item], timings: inout [String]) throws -> [FaultDrill.Outcome] {
        progress("Classroom drill: grading her push with check --classroom, as she would…")
        let check = try ChildProcess.run(executable.path, ["check", "--classroom", "--json"],
                                         environment: [WorkbookEnvironment.Name.root: ada.folder.path, WorkbookEnvironment.Name.noColor: "1",
                                                       WorkbookEnvironment.Name.checkScratch: base.appendingPathComponent("check-build").path],
                                         timeLimit: 1_800)
        timings.append(String(format: "check --classroom %.0f s", check.seconds))
        let results = Self.json(in: check.output)
        var outcomes: [FaultDrill.Outcome] = []
        for item in rows {
            guard let verdict = item.row.check else { continue }
            // A failure scores nothing; a pass, whatever the exercise is worth.
            let id = item.exercise.id, want = verdict == .pass ? "pass" : "\(verdict.code) 0"
            let graded = results?.classroom?.items.first { $0.exercise == id }
            let actual = graded.map { $0.verdict == .pass ? "pass" : "\($0.verdict.code) \($0.points)" } ?? "not graded"
            outcomes.append(.init(fault: "classroom check", expected: "\(id) \(want)", actual: "\(id) \(actual)", held: actual == want))
        }
        let named = results?.classroom?.violations.map(\.path).sorted() ?? []
        outcomes.append(Self.outcome("classroom check", "exit 1, names the \(ada.changed.count) changed tests",
                                     held: check.termination == .exited(1) && named == ada.changed,
                                     otherwise: "\(check.termination.description), names \(named)"))
        return outcomes
    }

    /// An outcome whose `actual` is the expectation itself when it held, and `otherwise` when not.
    static func outcome(_ fault: String, _ expected: String, held: Bool, otherwise: @autoclosure () -> String) -> FaultDrill.Outcome {
        FaultDrill.Outcome(fault: fault, expected: expected, actual: held ? expected : otherwise(), held: held)
    }

    /// A student's clone of the template: its files and its git history, no builds.
    func copyStudent(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: template, to: folder)
    }

    func replace(_ relative: String, in folder: URL, with data: Data) throws {
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
}
