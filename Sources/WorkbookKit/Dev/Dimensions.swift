import Foundation

/// The dimensions every exercise's suite explores, so that a wrong answer nobody has written yet
/// falls into a cell that is already tested.
///
/// Each exercise declares in its chapter's manifest (`"dimensions"`) how its suite covers each one:
/// by tests of its suite and entries of the near-miss corpus, or not at all, and why. The tests of a
/// cell are generated from a small declaration in the suite (its operations, the queues and
/// deadlines it takes; see `Tests/WorkbookTestSupport/Dimensions.swift`). `workbook dimensions`
/// prints the table, and a unit test holds every named test and entry to the files.
public enum SuiteDimension: String, CaseIterable, Codable, CodingKeyRepresentable, Sendable {
    case queues, deadlines, overlap, lifetime, instances, visibility, reentrance, timedWaits, sanitizer, everyRun

    /// 1…10, as the table's columns are numbered.
    public var number: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }

    /// What the dimension asks of a suite, in a line.
    public var summary: String {
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
public enum DimensionCoverage: Codable, Sendable, Hashable {
    /// By these tests of the exercise's suite (function names) and entries of its near-miss corpus
    /// (file names without `.swift`); `note` says what is partial or measured.
    case tested(tests: [String], corpus: [String], note: String?)
    /// The dimension does not apply to the exercise, for this reason.
    case notApplicable(because: String)
    /// Not declared yet: `workbook new` writes one per dimension, saying what to declare.
    case toDo(String)

    private enum CodingKeys: String, CodingKey { case tests, corpus, note, notApplicable, todo }

    public init(from decoder: any Decoder) throws {
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

    public func encode(to encoder: any Encoder) throws {
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
public struct ExerciseDimensions: Sendable {
    public var chapter: Chapter
    public var exercise: Exercise
    /// The declared cells; a dimension without one is missing.
    public var cells: [SuiteDimension: DimensionCoverage]

    /// The dimensions the exercise declares nothing for.
    public var missing: [SuiteDimension] { SuiteDimension.allCases.filter { cells[$0] == nil } }
}

extension Workbook {
    /// Each exercise's declared dimensions, read from its chapter's manifest, in the workbook's order.
    public func dimensions(of chapters: [Chapter]? = nil) -> [ExerciseDimensions] {
        (chapters ?? self.chapters).flatMap { chapter in
            chapter.exercises.map { ExerciseDimensions(chapter: chapter, exercise: $0, cells: $0.dimensions ?? [:]) }
        }
    }

    /// What is wrong with the declarations of `declared`, said for a maintainer: a missing
    /// dimension, a cell with no test or no reason, a test its suite does not have, an entry its
    /// corpus does not have. Empty when all is well.
    public func dimensionProblems(_ declared: [ExerciseDimensions]) -> [String] {
        let corpus = corpus().entries
        var problems: [String] = []
        for item in declared {
            let id = item.exercise.id
            let suitePath = Layout.suiteFile(item.chapter, item.exercise)
            // The suite's every file: `<Suite>.swift` and its `<Suite>+<part>.swift` files.
            let folder = layout.url(suitePath).deletingLastPathComponent()
            let files = Builder.testFiles(ofSuite: item.exercise.suite,
                                          in: (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            let suite = files.compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
                .joined(separator: "\n")
            if !item.missing.isEmpty {
                problems.append("\(id) declares nothing for " + item.missing.map(\.rawValue).joined(separator: ", "))
            }
            for (dimension, cell) in item.cells.sorted(by: { $0.key.number < $1.key.number }) {
                switch cell {
                case let .notApplicable(reason) where reason.trimmingCharacters(in: .whitespaces).isEmpty:
                    problems.append("\(id) \(dimension.rawValue): notApplicable without a reason")
                case .notApplicable:
                    break
                case let .toDo(what):
                    problems.append("\(id) \(dimension.rawValue): still to do — \(what)")
                case let .tested(tests, entries, _):
                    if tests.isEmpty { problems.append("\(id) \(dimension.rawValue): no test named") }
                    for test in tests where !Self.declaresTest(test, in: suite) {
                        problems.append("\(id) \(dimension.rawValue): \(suitePath) has no @Test func \(test)")
                    }
                    for entry in entries where !corpus.contains(where: { $0.exerciseID == id && $0.name == entry }) {
                        problems.append("\(id) \(dimension.rawValue): no corpus entry \(entry) for \(id)")
                    }
                }
            }
        }
        return problems
    }

    /// Whether `source` declares `func name(` as a Swift Testing test: an `@Test` attribute in the
    /// lines right above it (attributes, and a multi-line `@Test(…)`), up to a blank line or the end
    /// of the declaration before.
    static func declaresTest(_ name: String, in source: String) -> Bool {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.contains { index in
            // The plain search first: the expression is slow over every line of every suite.
            guard lines[index].contains("func \(name)("),
                  lines[index].range(of: #"\bfunc \#(name)\("#, options: .regularExpression) != nil else { return false }
            for above in lines[..<index].reversed() {
                let text = above.trimmingCharacters(in: .whitespaces)
                if text.contains("@Test") { return true }
                if text.isEmpty || text.hasSuffix("}") || text.contains("func ") { return false }
            }
            return false
        }
    }
}
