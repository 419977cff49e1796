import Foundation
import WorkbookKit

/// The workbook and the learner's saved state, loaded together.
struct LearnerContext {
    let workbook: Workbook
    var state: LearnerState
    let stateFile: URL

    init() throws {
        workbook = try currentWorkbook()
        stateFile = LearnerState.file(of: workbook)
        state = try LearnerState.load(from: stateFile)
        if state.starterCommit == nil, let commit = Starters(workbook: workbook).currentCommit() {
            state.starterCommit = commit
            try? save()
        }
    }

    func save() throws { try state.save(to: stateFile) }

    /// The first exercise not done yet.
    var next: (chapter: Chapter, exercise: Exercise)? {
        workbook.allExercises.first { !state.done.contains($0.exercise.id) }
    }
}

/// Asks a yes/no question on a terminal; `false` when not on one.
func confirm(_ question: String) -> Bool {
    guard isatty(STDIN_FILENO) == 1 else { return false }
    print(question + " [y/N] ", terminator: "")
    guard let answer = readLine() else { return false }
    return ["y", "yes"].contains(answer.lowercased())
}

/// Shows a file through a pager on a terminal, or prints it.
func page(_ file: URL) throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    guard isatty(STDOUT_FILENO) == 1 else { print(text); return }
    let pager = ProcessInfo.processInfo.environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = pager == "less" ? ["less", "-R", "-F", "-X", file.path] : [pager, file.path]
    do {
        try process.run()
        process.waitUntilExit()
    } catch {
        print(text)
    }
}
