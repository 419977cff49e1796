import Foundation

/// The classroom layer, end to end, as `workbook selftest` proves it, with the `workbook` tool as a
/// teacher and students run it: a teacher who solved 1.1 in their working tree exports chapters 1, 2,
/// 3 and 5; the copy must hold the starters, exactly those chapters, the student README and the
/// hints without code. A student's push (two chapters solved, a file added beside them, one of her
/// tests changed and another gutted, a file that does not compile) is graded by her own `check
/// --classroom`, by the autograding workflow's own commands, and by `grade` — the last two must agree
/// point for point. Three submissions are graded in a batch, one of which tries to write outside its
/// folder and to reach a listener the drill holds open on the loopback interface.
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

    func run() throws -> [FaultDrill.Outcome] {
        let number = Set(workbook.chapters.map(\.number))
        guard Self.assigned.allSatisfy(number.contains), workbook.chapters.count > Self.assigned.count else {
            return [FaultDrill.Outcome(fault: "classroom drill", expected: "Chapters 1, 2, 3 and 5, and one more", actual: "missing", held: false)]
        }
        let teacher = base.appendingPathComponent("teacher")
        for folder in [template, submissions, base.appendingPathComponent("workflow")] { try? FileManager.default.removeItem(at: folder) }
        let one = try chapter(1)
        var timings: [String] = []

        // The teacher's working tree: the workbook, with 1.1 solved while trying it out.
        progress("Classroom drill: exporting chapters 1, 2, 3 and 5 from a working tree whose 1.1 is solved…")
        try PackageMirror(source: workbook.root, copy: teacher).sync()
        try replace(Layout.exerciseFile(one, one.exercises[0]), in: teacher, with: Data(contentsOf: workbook.solutionFile(one, one.exercises[0])))
        let export = try ChildProcess.run(
            executable.path, ["export", "--student", template.path, "--chapters", Self.assigned.map(String.init).joined(separator: ",")],
            environment: ["WORKBOOK_ROOT": teacher.path, "NO_COLOR": "1"], timeLimit: 600)
        var outcomes = try exported(export)
        let assignment = try WorkbookLock.read(root: template).assignment
        let copy = try Workbook(root: template)

        let ada = try adasPush()
        outcomes += try adasOwnCheck(ada, assignment, copy, timings: &timings)
        let steps = try workflowSteps(on: ada, assignment, copy, timings: &timings)
        outcomes += steps.outcomes
        outcomes += try batch(ada, workflowPoints: steps.points, assignment, copy, timings: &timings)
        // For the record, never a pass or a failure.
        progress("Classroom drill timings (cold builds): " + timings.joined(separator: "; ") + ".")
        return outcomes
    }

    /// Ada: chapters 1 and 2 solved, with a file of notes beside chapter 1 that is not Swift; a
    /// harmless comment in a chapter 2 test; 5.1's test replaced by one that passes anything; 3.1
    /// does not compile; chapter 5 otherwise as handed out (5.1 races). Committed, as a push is.
    private func adasPush() throws -> Push {
        let one = try chapter(1), two = try chapter(2), three = try chapter(3), five = try chapter(5)
        let ada = submissions.appendingPathComponent("ada")
        try copyStudent(to: ada)
        for (chapter, exercise) in one.exercises.map({ (one, $0) }) + two.exercises.map({ (two, $0) }) {
            try replace(Layout.exerciseFile(chapter, exercise), in: ada, with: Data(contentsOf: workbook.solutionFile(chapter, exercise)))
        }
        try replace(Layout.chapterFolder(one) + "/Notes.swift", in: ada, with: Data("My notes: a latch needs one serial queue.\n".utf8))
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
        let committed = Self.git(ada, ["add", "-A"])
            && Self.git(ada, ["-c", "user.name=Ada", "-c", "user.email=ada@localhost", "commit", "-q", "-m", "my work"])
        return Push(folder: ada, changed: [commented, gutted].sorted(), committed: committed)
    }

    /// Her own `check --classroom`: her notes break chapter 1's build there, and the chapters whose
    /// tests she changed are not graded there, with the files named.
    private func adasOwnCheck(_ ada: Push, _ assignment: ClassroomAssignment, _ copy: Workbook,
                              timings: inout [String]) throws -> [FaultDrill.Outcome] {
        progress("Classroom drill: grading her push with check --classroom, as she would…")
        let three = try chapter(3)
        let check = try ChildProcess.run(executable.path, ["check", "--classroom", "--json"],
                                         environment: ["WORKBOOK_ROOT": ada.folder.path, "NO_COLOR": "1",
                                                       "WORKBOOK_CHECK_SCRATCH": base.appendingPathComponent("check-build").path],
                                         timeLimit: 1_800)
        timings.append(String(format: "check --classroom %.0f s", check.seconds))
        let results = Self.json(in: check.output)
        var outcomes: [FaultDrill.Outcome] = []
        for (chapter, exercise, _) in assignment.exercises(in: copy) {
            let want = switch chapter.number {
            case 1: "compile 0"
            case 2, 5: "tampered 0"
            case 3 where exercise == three.exercises[0]: "compile 0"
            default: ""
            }
            guard !want.isEmpty else { continue }
            let item = results?.classroom?.items.first { $0.exercise == exercise.id }
            let actual = item.map { "\($0.verdict.code) \($0.points)" } ?? "not graded"
            outcomes.append(.init(fault: "classroom check", expected: "\(exercise.id) \(want)", actual: "\(exercise.id) \(actual)", held: actual == want))
        }
        let named = results?.classroom?.violations.map(\.path).sorted() ?? []
        outcomes.append(Self.outcome("classroom check", "exit 1, names the two changed tests",
                                     held: check.termination == .exited(1) && named == ada.changed,
                                     otherwise: "\(check.termination.description), names \(named)"))
        return outcomes
    }

    /// An outcome whose `actual` is the expectation itself when it held, and `otherwise` when not.
    static func outcome(_ fault: String, _ expected: String, held: Bool, otherwise: @autoclosure () -> String) -> FaultDrill.Outcome {
        FaultDrill.Outcome(fault: fault, expected: expected, actual: held ? expected : otherwise(), held: held)
    }

    func chapter(_ number: Int) throws -> Chapter {
        guard let found = workbook.chapters.first(where: { $0.number == number }) else {
            throw WorkbookError.drillSetUp("the classroom drill needs Chapter \(number)")
        }
        return found
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
