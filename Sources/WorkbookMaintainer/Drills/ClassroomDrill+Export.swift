import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension ClassroomDrill {
    /// What the export did: a starter for each exercise the teacher solved (and said so), exactly the
    /// `assigned` chapters, what a student sees first, the student README, the hints without code.
    func exported(_ export: ChildResult, solved: [Item], assigned: [Int]) throws -> [FaultDrill.Outcome] {
        let fm = FileManager.default
        // The tool wraps its sentences to the terminal's width: read them as one line.
        let sentence = export.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let ids = solved.map(\.exercise.id).joined(separator: ", ")
        var outcomes = [Self.outcome("classroom export", "exit 0, says the working tree's \(ids) was not handed out",
                                     held: export.termination == .exited(0)
                                         && solved.allSatisfy { sentence.contains("your \($0.exercise.id) differs from the starter and was not handed out") },
                                     otherwise: "\(export.termination.description): \(export.output.suffix(300))")]
        let starters = Starters(workbook: workbook)
        for item in solved {
            let (chapter, exercise) = (item.chapter, item.exercise)
            let handedOut = fm.contents(atPath: template.appendingPathComponent(Layout.exerciseFile(chapter, exercise)).path)
            let starter = try starters.starter(chapter, exercise, commit: nil)
            outcomes.append(Self.outcome("classroom export", "\(exercise.id) in the copy is its starter",
                                         held: handedOut == starter && handedOut != fm.contents(atPath: workbook.solutionFile(chapter, exercise).path),
                                         otherwise: "\(exercise.id) in the copy is not its starter"))
        }

        let copy = try Workbook(root: template)
        let listing = assigned.map(String.init).joined(separator: ", ")
        func has(_ path: String) -> Bool { fm.fileExists(atPath: template.appendingPathComponent(path).path) }
        let chapters = copy.chapters.map(\.number)
        let tests = workbook.chapters.filter { has(Layout.testFolder($0)) }.map(\.number)
        let kept = workbook.chapters.filter { chapter in chapter.exercises.contains { has(Layout.starterCopy(chapter, $0)) } }.map(\.number)
        let extra = ([SourceSet.solutions.folder] + StudentCopy.leftOutTests).filter(has)
        outcomes.append(Self.outcome("classroom export", "exactly chapters \(listing): exercises, tests, starters",
                                     held: chapters == assigned && tests == assigned && kept == assigned && extra.isEmpty,
                                     otherwise: "exercises \(chapters), tests \(tests), starters \(kept)" + (extra.isEmpty ? "" : ", and \(extra)")))

        // What a student sees first: `workbook` in a fresh clone.
        let clone = base.appendingPathComponent("first-look")
        try? fm.removeItem(at: clone)
        try copyStudent(to: clone)
        defer { try? fm.removeItem(at: clone) }
        let look = try ChildProcess.run(executable.path, [], environment: [WorkbookEnvironment.Name.root: clone.path, WorkbookEnvironment.Name.noColor: "1"], timeLimit: 120)
        let lock = try WorkbookLock.read(root: template)
        let count = lock.assignment.points.count
        let listed = workbook.chapters.filter { look.output.contains("Chapter \($0.number) — ") }.map(\.number)
        outcomes.append(Self.outcome("classroom export", "`workbook` in a clone: 0 of \(count) done, chapters \(listing), \(lock.assignment.maxScore) points",
                                     held: look.output.contains("0 of \(count) exercises done") && listed == assigned
                                         && look.output.contains("worth \(lock.assignment.maxScore) points"),
                                     otherwise: "`workbook` in a clone lists chapters \(listed): \(look.output.prefix(200))"))

        let readme = (try? String(contentsOf: template.appendingPathComponent(StudentCopy.readmeName), encoding: .utf8)) ?? ""
        let files = copy.allExercises.map { Layout.exerciseFile($0.chapter, $0.exercise) }
        outcomes.append(Self.outcome("classroom export", "the README is the students': their files and points, nothing of the maintainers'",
                                     held: readme == StudentReadme.render(assignment: lock.assignment, workbook: copy, hints: .default)
                                         && files.allSatisfy(readme.contains)
                                         && !["selftest", ".ci/", "near miss"].contains(where: readme.lowercased().contains),
                                     otherwise: "the README: \(readme.prefix(80))"))

        let hints = ExportedHints.read(root: template)
        let raw = (try? String(contentsOf: template.appendingPathComponent(ExportedHints.fileName), encoding: .utf8)) ?? ""
        let nudges = hints?.level == .nudges && hints?.exerciseIDs == copy.allExercises.map(\.exercise.id).sorted()
            && copy.allExercises.allSatisfy { item in
                let (chapter, exercise) = (item.chapter, item.exercise)
                let full = workbook.hints(for: exercise, in: workbook.chapters.first { $0.number == chapter.number } ?? chapter)
                let given = hints?.ladder(for: exercise.id) ?? []
                return !given.isEmpty && given == full.filter { !$0.showsCode } && given.count < full.count
                    && !given.contains { raw.contains($0.text.prefix(40)) }
            }
        let plain = (fm.enumerator(atPath: template.path)?.allObjects as? [String] ?? [])
            .filter { ($0 as NSString).lastPathComponent == HintFile.name }
        outcomes.append(Self.outcome("classroom export", "hints: the steps without code of exactly the assigned exercises, not in plain text",
                                     held: nudges && plain.isEmpty,
                                     otherwise: "hints: \(hints.map { "\($0.level.rawValue) for \($0.exerciseIDs.joined(separator: ", "))" } ?? "none")"
                                         + (plain.isEmpty ? "" : ", and \(plain.joined(separator: ", "))")))
        return outcomes
    }
}
