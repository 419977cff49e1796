import Foundation

/// The dimensions every exercise's suite explores, so that a wrong answer nobody has written yet
/// falls into a cell that is already tested.
///
/// Each exercise declares in its chapter's manifest (`"dimensions"`) how its suite covers each one:
/// by tests of its suite and entries of the near-miss corpus, or not at all, and why. The tests of a
/// cell are generated from a small declaration in the suite (its operations, the queues and
/// deadlines it takes; see `Tests/WorkbookTestSupport/Dimensions.swift`). `workbook dimensions`
/// prints the table, and a unit test holds every named test and entry to the files.
package enum SuiteDimension: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable {
    case queues, deadlines, overlap, lifetime, instances, visibility, reentrance, timedWaits, sanitizer, everyRun

    /// 1…10, as the table's columns are numbered.
    package var number: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

    /// What the dimension asks of a suite, in a line.
    package var summary: String {
        switch self {
        case .queues: "every queue handed in is exercised as a serial queue, a concurrent queue and the caller's own queue"
        case .deadlines: "every deadline parameter: past, now, soon, far, distantFuture"
        case .overlap: "every pair of operations at the same moment, each with itself too, behind start gates"
        case .lifetime: "released fresh, with work in flight, with work waiting, after it completed"
        case .instances: "two instances at once, one used from the other's callback"
        case .visibility: "plain data written before each call is read in each callback it leads to, under TSan"
        case .reentrance: "callbacks that call back in, from the same and another thread, and callbacks that block"
        case .timedWaits: "a timed wait that goes on anyway is wrong at any timeout"
        case .sanitizer: "a writer that skips the guard is seen, even against a value-returning sync read"
        case .everyRun: "every wrong answer caught every run, by held queues and gates, or its rate measured"
        }
    }
}

/// How an exercise's suite covers one dimension.
package enum DimensionCoverage: Codable, Sendable, Hashable {
    /// By these tests of the exercise's suite (function names) and entries of its near-miss corpus
    /// (file names without `.swift`); `note` says what is partial or measured.
    case tested(tests: [String], corpus: [String], note: String?)
    /// The dimension does not apply to the exercise, for this reason.
    case notApplicable(because: String)
    /// Not declared yet: `workbook new` writes one per dimension, saying what to declare.
    case toDo(String)

    private enum CodingKeys: String, CodingKey { case tests, corpus, note, notApplicable, todo }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let reason = try container.decodeIfPresent(String.self, forKey: .notApplicable) {
            self = .notApplicable(because: reason)
        } else if let what = try container.decodeIfPresent(String.self, forKey: .todo) {
            self = .toDo(what)
        } else {
            self = .tested(tests: try container.decode([String].self, forKey: .tests),
                           corpus: try container.decodeIfPresent([String].self, forKey: .corpus) ?? [],
                           note: try container.decodeIfPresent(String.self, forKey: .note))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .tested(tests, corpus, note):
            try container.encode(tests, forKey: .tests)
            if !corpus.isEmpty { try container.encode(corpus, forKey: .corpus) }
            try container.encodeIfPresent(note, forKey: .note)
        case let .notApplicable(reason):
            try container.encode(reason, forKey: .notApplicable)
        case let .toDo(what):
            try container.encode(what, forKey: .todo)
        }
    }
}

/// The dimensions one exercise declares.
package struct ExerciseDimensions: Sendable {
    package var chapter: Chapter
    package var exercise: Exercise
    /// The declared cells; a dimension without one is missing.
    package var cells: [SuiteDimension: DimensionCoverage]

    /// The dimensions the exercise declares nothing for.
    package var missing: [SuiteDimension] { SuiteDimension.allCases.filter { cells[$0] == nil } }
}

extension Workbook {
    /// Each exercise's declared dimensions, read from its chapter's manifest, in the workbook's order.
    package func dimensions(of chapters: [Chapter]? = nil) -> [ExerciseDimensions] {
        (chapters ?? self.chapters).flatMap { chapter in
            chapter.exercises.map { ExerciseDimensions(chapter: chapter, exercise: $0, cells: $0.dimensions ?? [:]) }
        }
    }
}
