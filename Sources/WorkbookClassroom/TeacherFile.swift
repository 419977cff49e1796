import Foundation
import WorkbookCore
import WorkbookEngine

/// What identifies a submitted exercise file's code: the SHA-256 of its code with comments left
/// out and spacing made irrelevant (``SwiftSource/codeWithoutComments(_:)``), its first 16 hex
/// digits. Two files with the same fingerprint are the same code, whatever their comments say.
enum CodeFingerprint {
    static func of(_ source: String) -> String {
        String(SHA256.hex(Data(SwiftSource.codeWithoutComments(source).utf8)).prefix(16))
    }
}

/// What `workbook export` keeps for the teacher in the student copy's folder, out of its git
/// history (the copy's `.gitignore` names it), so that it is never handed out: the fingerprint of
/// every answer the workbook knows to be correct for each assigned exercise — the reference
/// solution and the near misses' correct alternatives. `workbook grade`, run in that folder, flags
/// a submission whose code is one of them.
package struct TeacherFile: Codable, Sendable, Equatable {
    /// Its name, at the root of the student copy's folder.
    package static let fileName = Layout.teacherFile
    static let currentVersion = 1

    /// One correct answer, by its fingerprint.
    struct Answer: Codable, Sendable, Equatable {
        var fingerprint: String
        /// What it is, as the gradebook says it: "the reference solution", "a correct alternative (1.1-alt-nslock)".
        var what: String
    }

    var version = TeacherFile.currentVersion
    /// Why the file is there, for a teacher who opens it.
    var about = "Kept by `workbook export` for `workbook grade`: the fingerprints of the correct answers of each assigned exercise. Not committed (see .gitignore): never hand it out."
    /// By exercise id.
    var answers: [String: [Answer]]

    /// The correct answers `workbook` knows for each exercise of `assignment`.
    init(workbook: Workbook, assignment: ClassroomAssignment) throws {
        let alternatives = workbook.corpus(of: workbook.chapters).entries.filter { $0.expectation == .passes }
        var answers: [String: [Answer]] = [:]
        for (chapter, exercise, _) in assignment.exercises(in: workbook) {
            let reference = try String(contentsOf: workbook.solutionFile(chapter, exercise), encoding: .utf8)
            answers[exercise.id] = [Answer(fingerprint: CodeFingerprint.of(reference), what: Says.referenceSolution)]
                + alternatives.filter { $0.exerciseID == exercise.id }.compactMap { entry in
                    (try? String(contentsOf: entry.file, encoding: .utf8))
                        .map { Answer(fingerprint: CodeFingerprint.of($0), what: Says.correctAlternative(entry.name)) }
                }
        }
        self.answers = answers
    }

    /// What a submission's `fingerprint` of `exercise` is, when it is a known correct answer.
    func answer(_ exercise: String, fingerprint: String) -> String? {
        answers[exercise]?.first { $0.fingerprint == fingerprint }?.what
    }

    /// The file at `root`, when there is one that can be read.
    static func read(root: URL) -> TeacherFile? {
        FileManager.default.contents(atPath: root.appendingPathComponent(fileName).path)
            .flatMap { try? JSONDecoder().decode(TeacherFile.self, from: $0) }
            .flatMap { $0.version == currentVersion ? $0 : nil }
    }

    func write(root: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(self) + Data("\n".utf8)).write(to: root.appendingPathComponent(Self.fileName), options: .withoutOverwriting)
    }
}
