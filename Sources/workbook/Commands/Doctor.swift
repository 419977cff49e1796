import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Command {
    /// What `doctor` takes.
    struct DoctorFlags: FlagSet {
        let json = Flag("--json", help: "print the report as JSON, to paste into a bug report")
    }

    static let doctor: Command = Command(
        name: .doctor,
        abstract: "check that this machine can grade: toolchain, sanitizer, a race and a trap end to end",
        arguments: .none,
        discussion: """
        Checks each link a verdict depends on: the Swift toolchain and its version, the Thread \
        Sanitizer's runtime, the symbolizer that turns TSan's addresses into files and lines, and then, \
        end to end, a probe package of a few lines built under TSan and run exactly as `check` runs the \
        chapters — a data race caught and placed at its line, the same in an exit test's child process, \
        and a libdispatch trap graded and placed. One line each, ✔ or ✘ with the fix (– where grading \
        works with less detail). Run it first on a new machine, and send its `--json` with a report when \
        something does not work. Exit status 0 only if no line failed.
        """,
        flags: DoctorFlags.self,
        run: runDoctor)
}

private func runDoctor(_ arguments: ParsedArguments<Command.DoctorFlags>) throws -> Int32 {
    let workbook = try currentWorkbook()
    let folder = workbook.layout.url(Layout.scratch(.doctor))
    let json = arguments[\.json]
    // Progress goes to standard error: standard output stays clean for --json.
    let report = Doctor.check(platform: Terminal.platform, folder: folder, progress: Terminal.progress)
    Terminal.say(json ? report.json() : report.rendered(style: Terminal.style))
    return report.passed ? 0 : 1
}
