import Foundation
import WorkbookCore
import WorkbookEngine

/// `.github/workflows/classroom.yml`: GitHub Classroom's autograding, one graded step per exercise.
///
/// The shape is the one GitHub Classroom's own generated workflows have: a workflow named
/// "Autograding Tests" with the single job `run-autograding-tests` (the reporter uploads no scores
/// otherwise), a `classroom-resources/autograding-command-grader@v1` step per test whose exit status
/// decides its points, and a final `classroom-resources/autograding-grading-reporter@v1` step that
/// reads each grader's `result` output from the environment variable `<STEP ID IN CAPITALS>_RESULTS`
/// and lists the step ids in `runners`.
package enum ClassroomWorkflow {
    /// Where the workflow lives in a student copy.
    package static let path = Layout.classroomWorkflow
    /// The workflow's name; GitHub Classroom looks for exactly this one.
    static let name = "Autograding Tests"
    /// The job's name; GitHub Classroom looks for exactly this one.
    static let job = "run-autograding-tests"
    /// The image the job runs in: the Swift toolchain installed the standard way, as in the
    /// project's CI.
    static let container = "swift:6.3"
    /// Minutes an exercise's step may take before the grader stops it.
    package static let timeoutMinutes = 10

    /// The id of an exercise's grading step: "1.1" → `exercise-1-1`.
    static func stepID(for exercise: String) -> String {
        "exercise-" + exercise.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    /// The environment variable the reporter reads a step's result from: `EXERCISE-1-1_RESULTS`.
    static func resultsVariable(for stepID: String) -> String {
        stepID.uppercased() + "_RESULTS"
    }

    /// How the workflow runs the `workbook` tool.
    static let tool = "swift run workbook"

    /// The arguments of the `workbook` tool that grade one exercise; its exit status decides the points.
    package static func arguments(for exercise: String) -> [String] {
        ["check", "--classroom", exercise]
    }

    /// The command that grades one exercise; its exit status decides the points.
    static func command(for exercise: String) -> String {
        ([tool] + arguments(for: exercise)).joined(separator: " ")
    }

    /// The shell script that puts every protected file back as the template commit (the
    /// repository's first) has it, and removes the files a student added beside the exercises, run
    /// in the repository before anything is graded: what is graded is the exercise files in the
    /// template, the same as `workbook grade` grades by copying only them into a pristine copy.
    package static var restoreScript: String {
        let restored = (ProtectedPaths.pathspecs + [WorkbookLock.fileName]).map(shellQuoted).joined(separator: " ")
        let cleared = ProtectedPaths.folders.map(shellQuoted).joined(separator: " ")
        return """
        git config --global --add safe.directory "$GITHUB_WORKSPACE"
        template=$(git rev-list --max-parents=0 HEAD | tail -n 1)
        # Whole folders, so that files a student added to them go too.
        rm -rf -- \(cleared)
        git checkout "$template" -- \(restored)
        # Only the exercise files are graded: files added beside them go.
        git diff -z --no-renames --name-only --diff-filter=A "$template" HEAD -- \(shellQuoted(ProtectedPaths.exercisesFolder)) | xargs -0 -r rm -f --
        """
    }

    /// The workflow for `assignment`: restore the protected files from the template commit, build
    /// once, grade each assigned exercise in its own step, report.
    static func yaml(for assignment: ClassroomAssignment, workbook: Workbook) -> String {
        let exercises = assignment.exercises(in: workbook)
        let restore = restoreScript.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n")
        var yaml = """
        # GitHub Classroom autograding for this assignment, written by `workbook export`.
        #
        # On every push it puts back the tests, the tool, Package.swift, the chapter manifests, this
        # workflow and workbook.lock as the assignment's template commit has them, and removes files
        # added beside the exercises (so only the exercise files count, as with `workbook grade`),
        # builds once, then grades each assigned exercise in its own step under the Thread Sanitizer
        # with `workbook check --classroom`: an exercise earns its points when that passes. The last
        # step reports every step's result to GitHub Classroom.
        name: \(quoted(name))
        on: [push, workflow_dispatch, repository_dispatch]
        permissions:
          checks: write
          actions: read
          contents: read
        jobs:
          \(job):
            runs-on: ubuntu-24.04
            container: \(quoted(container))
            if: github.actor != 'github-classroom[bot]'
            steps:
              - name: Check out the submission
                uses: actions/checkout@v4
                with:
                  fetch-depth: 0
              - name: Put back the protected files from the template commit, drop files added beside the exercises
                run: |
        \(restore)
              - name: Build once, so each exercise's step builds only what changed
                run: |
                  swift build --product workbook
                  \(tool) check --classroom || true

        """
        for (_, exercise, points) in exercises {
            let id = stepID(for: exercise.id)
            let test = "\(exercise.id) \(exercise.title)"
            yaml += """
                  - name: \(quoted(test))
                    id: \(id)
                    uses: classroom-resources/autograding-command-grader@v1
                    with:
                      test-name: \(quoted(test))
                      setup-command: ""
                      command: \(quoted(command(for: exercise.id)))
                      timeout: \(timeoutMinutes)
                      max-score: \(points)

            """
        }
        let ids = exercises.map { stepID(for: $0.exercise.id) }
        yaml += """
              - name: Autograding Reporter
                uses: classroom-resources/autograding-grading-reporter@v1
                env:

        """
        for id in ids {
            yaml += "          \(resultsVariable(for: id)): \"${{steps.\(id).outputs.result}}\"\n"
        }
        yaml += """
                with:
                  runners: \(ids.joined(separator: ","))

        """
        return yaml
    }

    /// A YAML double-quoted scalar (JSON's string syntax is a subset of it).
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A word for the shell, in single quotes.
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
