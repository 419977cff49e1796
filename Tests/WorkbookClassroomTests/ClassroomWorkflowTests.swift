import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Classroom: the autograding workflow")
struct ClassroomWorkflowTests {
    let workbook = Fixture.workbook

    func assignment() throws -> ClassroomAssignment {
        try ClassroomAssignment(workbook: workbook, chapters: [1, 3], points: ["1.1": 5, "3.2": 20])
    }

    /// The lines of `yaml` that start, after their indentation, with `prefix`, without it.
    func values(_ yaml: String, _ prefix: String) -> [String] {
        yaml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    @Test("one grader step per assigned exercise, unique lowercase ids, its points as max-score")
    func graderSteps() throws {
        let assignment = try assignment()
        let yaml = ClassroomWorkflow.yaml(for: assignment, workbook: workbook)
        let assigned = assignment.exercises(in: workbook)
        let ids = values(yaml, "id: ")
        #expect(ids == assigned.map { ClassroomWorkflow.stepID(for: $0.exercise.id) })
        #expect(Set(ids).count == ids.count)
        #expect(ids.first == "exercise-1-1")
        #expect(ids.allSatisfy { $0 == $0.lowercased() && !$0.contains(".") })
        #expect(values(yaml, "uses: classroom-resources/autograding-command-grader@v1").count == assigned.count)
        #expect(values(yaml, "max-score: ") == assigned.map { String($0.points) })
        #expect(values(yaml, "command: ") == assigned.map { "\"swift run workbook check --classroom \($0.exercise.id)\"" })
        #expect(values(yaml, "runners: ") == [ids.joined(separator: ",")])
        #expect(values(yaml, "EXERCISE-1-1_RESULTS: ") == [#""${{steps.exercise-1-1.outputs.result}}""#])
        #expect(values(yaml, "name: ").first == "\"Autograding Tests\"")
        #expect(yaml.hasPrefix("# "), "it opens with a comment saying what it does")
    }

    @Test("the restore step puts back every protected file of the real workbook, and the lock")
    func restoresEveryProtectedFile() throws {
        let yaml = ClassroomWorkflow.yaml(for: try assignment(), workbook: workbook)
        let restore = try #require(values(yaml, #"git checkout "$template" -- "#).first)
        let pathspecs = restore.split(separator: " ").map { String($0.dropFirst().dropLast()) }
        #expect(pathspecs.contains(WorkbookLock.fileName))
        #expect(pathspecs.contains(ClassroomWorkflow.path))
        let protected = try ProtectedPaths.list(under: Fixture.packageRoot)
        #expect(protected.count > 20)
        for path in protected {
            let covered = pathspecs.contains { spec in
                path == spec || path.hasPrefix(spec + "/") || fnmatch(spec, path, 0) == 0
            }
            #expect(covered, "\(path) is protected but not restored")
        }
        #expect(values(yaml, "rm -rf -- ") == ["'Sources' 'Tests'"], "files added to protected folders go too")
        #expect(values(yaml, "template=") == ["$(git rev-list --max-parents=0 HEAD | tail -n 1)"])
    }

    @Test("titles with quotes and backslashes stay one YAML string")
    func quoting() throws {
        var chapter = workbook.chapters[0]
        chapter.exercises = [Exercise(id: "1.1", title: #"The "odd" one \ here: yes"#, file: "A.swift",
                                      suite: "Exercise1_1Tests", expectedFailure: .race)]
        let odd = Workbook(root: workbook.root, chapters: [chapter])
        let yaml = ClassroomWorkflow.yaml(for: try ClassroomAssignment(workbook: odd), workbook: odd)
        #expect(values(yaml, "test-name: ") == [#""1.1 The \"odd\" one \\ here: yes""#])
    }

    @Test("it parses as YAML: Classroom's name and job, the triggers, the container, exactly the grader's five inputs, the reporter's env and runners",
          .enabled(if: ClassroomFixture.hasPythonYAML, "python3 with the yaml module is not installed"))
    func parsesAsYAML() throws {
        let assignment = try assignment()
        let folder = try ClassroomFixture.scratch("workflow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("classroom.yml")
        try ClassroomWorkflow.yaml(for: assignment, workbook: workbook).write(to: file, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run("python3", ["-c", Self.summarize, file.path], timeLimit: 60)
        #expect(result.termination == .exited(0), "\(result.output)")
        let parsed = try JSONDecoder().decode(ParsedWorkflow.self, from: Data(result.output.utf8))

        #expect(parsed.name == "Autograding Tests")
        #expect(parsed.on == ["push", "workflow_dispatch", "repository_dispatch"])
        #expect(parsed.permissions == ["checks": "write", "actions": "read", "contents": "read"])
        #expect(parsed.jobs.count == 1)
        let job = try #require(parsed.jobs["run-autograding-tests"])
        #expect(job.runsOn == "ubuntu-24.04")
        #expect(job.container == "swift:6.3")
        #expect(job.condition == "github.actor != 'github-classroom[bot]'")
        #expect(job.steps.first?.uses == "actions/checkout@v4")
        #expect(job.steps.first?.with == ["fetch-depth": "0"])

        let graders = job.steps.filter { $0.uses == "classroom-resources/autograding-command-grader@v1" }
        let assigned = assignment.exercises(in: workbook)
        #expect(graders.count == assigned.count)
        for (grader, (_, exercise, points)) in zip(graders, assigned) {
            #expect(Set(grader.with.keys) == ["test-name", "setup-command", "command", "timeout", "max-score"])
            #expect(grader.id == ClassroomWorkflow.stepID(for: exercise.id))
            #expect(grader.with["setup-command"] == "")
            #expect(grader.with["command"] == "swift run workbook check --classroom \(exercise.id)")
            #expect(grader.with["max-score"] == String(points))
            #expect(grader.withTypes["max-score"] == "int" && grader.withTypes["timeout"] == "int")
        }
        let reporter = try #require(job.steps.last)
        #expect(reporter.uses == "classroom-resources/autograding-grading-reporter@v1")
        #expect(Set(reporter.with.keys) == ["runners"])
        let ids = graders.compactMap(\.id)
        #expect(reporter.with["runners"]?.split(separator: ",").map(String.init) == ids)
        #expect(reporter.env == Dictionary(uniqueKeysWithValues: ids.map {
            ($0.uppercased() + "_RESULTS", "${{steps.\($0).outputs.result}}")
        }))
        let runs = job.steps.compactMap(\.run).joined(separator: "\n")
        #expect(runs.contains("safe.directory"))
        #expect(runs.contains("swift build"))
        #expect(runs.contains("swift run workbook check --classroom || true"))
    }

    @Test("the restore step, run on a pushed repository: edited and added protected files put back, files added beside the exercises gone, the exercise files kept",
          .enabled(if: ClassroomFixture.program("git") != nil, "git is not installed"))
    func restoreRuns() throws {
        let repo = try ClassroomFixture.scratch("restore")
        defer { try? FileManager.default.removeItem(at: repo) }
        func git(_ arguments: String...) throws {
            let result = try ChildProcess.run("git", ["-C", repo.path, "-c", "user.name=T", "-c", "user.email=t@localhost"] + arguments, timeLimit: 30)
            #expect(result.termination == .exited(0), "git \(arguments): \(result.output)")
        }
        // Every pathspec the script restores must be in the template, as in an exported copy.
        let handedOut = ["Package.swift": "// package", ClassroomWorkflow.path: "# workflow", "Sources/workbook/main.swift": "// tool",
                         "Tests/Chapter1LatchTests/Exercise1_1Tests.swift": "// the test",
                         "Exercises/Chapter1Latch/chapter.json": "{}", "Exercises/Chapter1Latch/CountdownBlock.swift": "// starter",
                         WorkbookLock.fileName: "{}"]
        for (path, text) in handedOut { try ClassroomFixture.write(text, to: path, under: repo) }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-q", "-m", "template")
        let pushed = ["Tests/Chapter1LatchTests/Exercise1_1Tests.swift": "// an easier test", "Sources/workbook/main.swift": "// a kinder tool", "Tests/Chapter1LatchTests/Extra.swift": "// more",
                      "Exercises/Chapter1Latch/chapter.json": "{\"points\": 99}", "Exercises/Chapter1Latch/CountdownBlock.swift": "// my answer",
                      "Exercises/Chapter1Latch/Helper.swift": "// a helper", "Exercises/Chapter1Latch/with space.swift": "// odd name"]
        for (path, text) in pushed { try ClassroomFixture.write(text, to: path, under: repo) }
        try git("add", "-A")
        try git("commit", "-q", "-m", "my work")

        let run = try ChildProcess.run("sh", ["-ec", "cd \"$0\"\n" + ClassroomWorkflow.restoreScript, repo.path],
                                       environment: ["HOME": repo.path, "GITHUB_WORKSPACE": repo.path], timeLimit: 60)
        #expect(run.termination == .exited(0), "\(run.output)")
        func text(_ path: String) -> String? { try? String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8) }
        #expect(text("Tests/Chapter1LatchTests/Exercise1_1Tests.swift") == "// the test")
        #expect(text("Sources/workbook/main.swift") == "// tool")
        #expect(text("Exercises/Chapter1Latch/chapter.json") == "{}")
        #expect(text("Exercises/Chapter1Latch/CountdownBlock.swift") == "// my answer", "the exercise file is the student's")
        for added in ["Tests/Chapter1LatchTests/Extra.swift", "Exercises/Chapter1Latch/Helper.swift", "Exercises/Chapter1Latch/with space.swift"] {
            #expect(text(added) == nil, "\(added) was added and must go")
        }
    }

    /// Prints the workflow file named by argv[1] as JSON in ``ParsedWorkflow``'s shape. (YAML 1.1
    /// reads the key `on` as `true`; GitHub reads it as `on`.)
    static let summarize = """
    import json, sys, yaml
    doc = yaml.safe_load(open(sys.argv[1]))
    def step(s):
        w = s.get("with") or {}
        return {"id": s.get("id"), "uses": s.get("uses"), "run": s.get("run"),
                "with": {k: "" if v is None else str(v) for k, v in w.items()},
                "withTypes": {k: type(v).__name__ for k, v in w.items()},
                "env": {k: str(v) for k, v in (s.get("env") or {}).items()}}
    print(json.dumps({
        "name": doc["name"], "on": doc.get("on", doc.get(True)), "permissions": doc["permissions"],
        "jobs": {name: {"runsOn": j["runs-on"], "container": j.get("container"), "condition": j.get("if"),
                        "steps": [step(s) for s in j["steps"]]} for name, j in doc["jobs"].items()}}))
    """

    struct ParsedWorkflow: Decodable {
        struct Job: Decodable {
            var runsOn: String
            var container: String?
            var condition: String?
            var steps: [Step]
        }
        struct Step: Decodable {
            var id: String?
            var uses: String?
            var run: String?
            var with: [String: String]
            var withTypes: [String: String]
            var env: [String: String]
        }
        var name: String
        var on: [String]
        var permissions: [String: String]
        var jobs: [String: Job]
    }
}
