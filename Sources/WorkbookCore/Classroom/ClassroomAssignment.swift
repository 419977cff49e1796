import Foundation

/// What a teacher assigns: some chapters, and the points each of their exercises is worth.
///
/// Stored in `workbook.lock`, so the grading reads the points the teacher set, not the student's.
package struct ClassroomAssignment: Codable, Sendable, Equatable {
    /// Points an exercise is worth unless the points file says otherwise.
    static let defaultPoints = 10

    /// The assigned chapters' numbers, ascending.
    package var chapters: [Int]
    /// Points by exercise id, for every exercise of the assigned chapters and no other.
    package var points: [String: Int]
    /// What the teacher calls the assignment (`export --name`, by default the copy's folder name);
    /// `nil` in a lock written before it was recorded.
    package var name: String?

    /// Every exercise of `chapters` (all of the workbook's when `nil`), at ``defaultPoints`` unless
    /// `points` says otherwise.
    ///
    /// Throws a bad-input ``ClassroomError`` for a chapter the workbook does not have, an empty list,
    /// or points for an exercise that does not exist or is not assigned, or that are not a positive
    /// whole number.
    package init(workbook: Workbook, chapters: [Int]? = nil, points overrides: [String: Int] = [:]) throws {
        let known = workbook.chapters.map(\.number)
        let chosen = Array(Set(chapters ?? known)).sorted()
        guard !chosen.isEmpty else { throw ClassroomError.badInput(Says.noChaptersAssigned) }
        if let unknown = chosen.first(where: { !known.contains($0) }) {
            throw ClassroomError.badInput(Says.noChapter(unknown, known: known))
        }
        let assigned = workbook.chapters.filter { chosen.contains($0.number) }.flatMap(\.exercises).map(\.id)
        var problems: [String] = []
        for (id, value) in overrides.sorted(by: { $0.key < $1.key }) {
            if !assigned.contains(id) {
                problems.append(Says.pointsForUnassigned(id, exists: workbook.allExercises.contains { $0.exercise.id == id }, assigned: chosen))
            } else if value <= 0 {
                problems.append(Says.pointsNotPositive(id, written: String(value)))
            }
        }
        guard problems.isEmpty else { throw Self.pointsError(problems) }
        self.chapters = chosen
        self.points = Dictionary(uniqueKeysWithValues: assigned.map { ($0, overrides[$0] ?? Self.defaultPoints) })
    }

    /// The assignment an `export` asks for: `chapterList` like "1,3" (or `nil` for every chapter) and
    /// the contents of a points file like `{"1.1": 5, "3.2": 20}` (or `nil` for the defaults).
    package init(workbook: Workbook, chapterList: String?, pointsFile: Data?) throws {
        try self.init(workbook: workbook,
                      chapters: try chapterList.map { try Self.parseChapters($0, in: workbook) },
                      points: try pointsFile.map(Self.parsePoints) ?? [:])
    }

    /// The chapter numbers of a list like "1,3" (or "Chapter1, chapter3semaphores": any name
    /// ``Workbook/chapter(named:)`` knows).
    static func parseChapters(_ list: String, in workbook: Workbook) throws -> [Int] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw ClassroomError.badInput(Says.notAChapterList(list))
        }
        return try names.map { name in
            guard let chapter = workbook.chapter(named: name) else {
                throw ClassroomError.badInput(Says.noChapter(named: name, known: workbook.chapters.map(\.number)))
            }
            return chapter.number
        }
    }

    /// Points by exercise id from a points file: a JSON object of whole numbers, like
    /// `{"1.1": 5, "3.2": 20}`. Whether the ids exist is checked against a workbook by `init`.
    static func parsePoints(_ data: Data) throws -> [String: Int] {
        let entries: [String: PointsEntry]
        do {
            entries = try JSONDecoder().decode([String: PointsEntry].self, from: data)
        } catch {
            throw ClassroomError.badInput(Says.pointsNotAnObject)
        }
        let problems = entries.sorted { $0.key < $1.key }.compactMap { id, entry in
            entry.points == nil ? Says.pointsNotPositive(id, written: entry.written) : nil
        }
        guard problems.isEmpty else { throw pointsError(problems) }
        return entries.compactMapValues(\.points)
    }

    /// Every assigned exercise with its chapter and points, in the workbook's order.
    package func exercises(in workbook: Workbook) -> [(chapter: Chapter, exercise: Exercise, points: Int)] {
        workbook.allExercises.compactMap { item in
            points[item.exercise.id].map { (item.chapter, item.exercise, $0) }
        }
    }

    /// The most points a student can get.
    package var maxScore: Int { points.values.reduce(0, +) }

    private static func pointsError(_ problems: [String]) -> ClassroomError {
        ClassroomError.badInput(Says.pointsFileUnusable(problems))
    }
}

/// One value of a points file, whatever JSON it is, so that a wrong one is named rather than
/// failing the whole file with a decoder's message.
private struct PointsEntry: Decodable {
    /// The points, when the value is a whole number (positivity is checked against the assignment).
    var points: Int?
    /// The value as written, for the message.
    var written: String

    init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Int.self) {
            points = number
            written = String(number)
        } else if let number = try? value.decode(Double.self) {
            written = String(number)
        } else if let text = try? value.decode(String.self) {
            written = "\"\(text)\""
        } else if let flag = try? value.decode(Bool.self) {
            written = String(flag)
        } else {
            written = value.decodeNil() ? "null" : "a list or an object"
        }
    }
}
