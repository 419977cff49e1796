import Foundation

/// How one exercise of one student came out, in a classroom grade.
package enum ClassroomVerdict: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Every run passed.
    case pass
    /// It failed this way.
    case failed(FailureKind)
    /// A protected file its chapter depends on was changed, so the tests that ran cannot be trusted:
    /// a student's own `check --classroom`. (Grading for the record puts the files back first.)
    case tampered
    /// It was not run: the submission did not build, timed out, or was not checked.
    case notGraded

    /// Every verdict, passing first, then the failures in the order a learner meets them.
    package static let allCases: [ClassroomVerdict] =
        [.pass] + FailureKind.allCases.sorted().map(ClassroomVerdict.failed) + [.tampered, .notGraded]

    /// The word for it in CSV and JSON: `pass`, `compile`, `race`, `crash`, `hang`, `wrong`,
    /// `tampered`, `not graded`.
    package var code: String {
        switch self {
        case .pass: "pass"
        case let .failed(kind): kind.rawValue
        case .tampered: "tampered"
        case .notGraded: "not graded"
        }
    }

    /// The verdict a ``code`` names.
    package init?(code: String) {
        guard let verdict = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = verdict
    }

    /// A short label for people: "passed", "data race", "protected file changed", …
    package var label: String {
        switch self {
        case .pass: "passed"
        case let .failed(kind): kind.label
        case .tampered: "protected file changed"
        case .notGraded: "not graded"
        }
    }

    package var description: String { code }

    package init(from decoder: Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let verdict = ClassroomVerdict(code: code) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no verdict is called '\(code)'"))
        }
        self = verdict
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// A student copy's classroom grade: points for each assigned exercise, with the reason.
package struct ClassroomGrade: Codable, Sendable, Equatable {
    /// One assigned exercise.
    package struct Item: Codable, Sendable, Equatable {
        /// The exercise's id, e.g. "1.1".
        package var exercise: String
        /// Its chapter's number.
        var chapter: Int
        /// Points awarded: all of ``maxPoints`` for a pass, none otherwise.
        package var points: Int
        package var maxPoints: Int
        package var verdict: ClassroomVerdict
        /// Why, in one sentence.
        package var reason: String
    }

    /// Every assigned exercise, in the workbook's order.
    package var items: [Item]
    /// The protected files that are not as `workbook.lock` has them.
    package var violations: [LockViolation]

    /// Points awarded in all.
    package var total: Int { items.map(\.points).reduce(0, +) }
    /// The most points there were.
    package var maxTotal: Int { items.map(\.maxPoints).reduce(0, +) }

    /// Grades each exercise of `assignment` by `report`, except that every exercise of a chapter a
    /// violation concerns gets 0 here, with the changed files named: the tests that ran cannot be
    /// trusted. (Grading for the record — the workflow, `workbook grade` — puts the protected files
    /// back first, so it meets no violation.) An assigned exercise the report does not have is not graded.
    package init(report: CheckReport, assignment: ClassroomAssignment, violations: [LockViolation], workbook: Workbook) {
        self.violations = violations
        self.items = assignment.exercises(in: workbook).map { chapter, exercise, maxPoints in
            let result = report.results.first { $0.exercise.id == exercise.id }
            let verdict: ClassroomVerdict
            let reason: String
            if let tampered = Self.tamperedReason(chapter: chapter.number, violations, workbook) {
                verdict = .tampered
                reason = tampered
            } else if let result, result.passed {
                verdict = .pass
                reason = Says.passed(runs: result.runs.count)
            } else if let result, let kind = result.kind {
                verdict = .failed(kind)
                reason = Says.failed(kind, failedRuns: result.runs.filter { !$0.passed }.count, of: result.runs.count,
                                     first: result.findings.headline?.oneSentence)
            } else {
                verdict = .notGraded
                reason = Says.notRunByThisCheck
            }
            return Item(exercise: exercise.id, chapter: chapter.number, points: verdict == .pass ? maxPoints : 0,
                        maxPoints: maxPoints, verdict: verdict, reason: reason)
        }
    }

    /// Why `chapter` is not graded here, when a violation concerns it.
    static func tamperedReason(chapter: Int, _ violations: [LockViolation], _ workbook: Workbook) -> String? {
        let tampering = violations.filter { violation in
            violation.affectedChapters(in: workbook).contains { $0.number == chapter }
        }
        guard !tampering.isEmpty else { return nil }
        return Says.tampered(chapter: chapter, changes: tampering.map(\.description))
    }
}
