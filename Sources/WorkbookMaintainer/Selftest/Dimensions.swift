import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

extension Workbook {
    /// What is wrong with the declarations of `declared`, said for a maintainer: a missing
    /// dimension, a cell with no test or no reason, a test its suite does not have, an entry its
    /// corpus does not have. Empty when all is well.
    package func dimensionProblems(_ declared: [ExerciseDimensions]) -> [String] {
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
