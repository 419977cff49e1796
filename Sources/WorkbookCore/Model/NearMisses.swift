import Foundation

/// One file of `Tests/NearMisses/<Chapter>/`: a complete replacement of an exercise file that the
/// suites must grade exactly as its first line declares.
///
/// A *near miss* is a plausible wrong answer, written the way learners get it almost right:
///
///     // near-miss race: `finished` is set outside the queue, so two callers write it at once.
///
/// A *correct alternative* is a right answer in another style, which must pass:
///
///     // alternative: an NSLock instead of a serial queue.
///
/// `workbook selftest` swaps every one in and holds the grader to it; `workbook solution` shows
/// them, with their one line, after the reference.
package struct CorpusEntry: Sendable, Hashable {
    package enum Expectation: Sendable, Hashable {
        /// A near miss: the grader must give this kind, every run.
        case fails(FailureKind)
        /// A correct alternative: it must pass, with no TSan report.
        case passes
    }

    /// The chapter folder, e.g. `Chapter1Latch`.
    package var chapter: String
    /// The exercise it replaces, e.g. `1.1`.
    package var exerciseID: String
    package var file: URL
    package var expectation: Expectation
    /// The first line's sentence: what is wrong and why it fails, or what the alternative does.
    package var why: String

    /// `1.1-flag-outside-queue`.
    package var name: String { file.deletingPathExtension().lastPathComponent }

    /// The header line for an expectation and its sentence.
    static let nearMissPrefix = "// near-miss "
    static let alternativePrefix = "// alternative: "

    /// Reads an entry's first line; `nil` with the reason when it does not follow the format.
    static func parse(firstLine: String) -> Result<(Expectation, String), CorpusError> {
        if firstLine.hasPrefix(alternativePrefix) {
            let why = firstLine.dropFirst(alternativePrefix.count).trimmingCharacters(in: .whitespaces)
            return why.isEmpty ? .failure(.badHeader("the alternative says nothing")) : .success((.passes, why))
        }
        guard firstLine.hasPrefix(nearMissPrefix) else {
            return .failure(.badHeader("the first line must start with `\(nearMissPrefix)<kind>:` or `\(alternativePrefix)`"))
        }
        let rest = firstLine.dropFirst(nearMissPrefix.count)
        guard let colon = rest.firstIndex(of: ":"),
              let kind = FailureKind(rawValue: String(rest[..<colon])) else {
            return .failure(.badHeader("`\(nearMissPrefix)` must be followed by one of \(FailureKind.allCases.map(\.rawValue).joined(separator: ", ")) and a colon"))
        }
        let why = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return why.isEmpty ? .failure(.badHeader("the near miss does not say what is wrong")) : .success((.fails(kind), why))
    }
}

/// Why a corpus file cannot be used.
enum CorpusError: Error, Sendable, Equatable, CustomStringConvertible {
    case badHeader(String)
    case unknownExercise(String)

    var description: String {
        switch self {
        case let .badHeader(reason): reason
        case let .unknownExercise(id): "its name must start with an exercise of the chapter (no exercise \(id))"
        }
    }
}

package extension Workbook {
    /// The folder of a chapter's near misses and correct alternatives.
    func nearMissFolder(_ chapter: Chapter) -> URL {
        layout.url(Layout.nearMissFolder(chapter))
    }

    /// Every near miss and alternative of `chapters`, in name order, and the files that do not follow
    /// the format (with the reason).
    func corpus(of chapters: [Chapter]? = nil) -> (entries: [CorpusEntry], problems: [String]) {
        var entries: [CorpusEntry] = []
        var problems: [String] = []
        for chapter in chapters ?? self.chapters {
            let folder = nearMissFolder(chapter)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".swift") }.sorted()
            for name in names {
                let file = folder.appendingPathComponent(name)
                let id = String(name.prefix { $0 != "-" })
                let firstLine = ((try? String(contentsOf: file, encoding: .utf8)) ?? "")
                    .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                guard chapter.exercises.contains(where: { $0.id == id }) else {
                    problems.append("\(Layout.nearMissFolder(chapter))/\(name): \(CorpusError.unknownExercise(id))")
                    continue
                }
                switch CorpusEntry.parse(firstLine: firstLine) {
                case let .success((expectation, why)):
                    entries.append(CorpusEntry(chapter: chapter.name, exerciseID: id, file: file,
                                               expectation: expectation, why: why))
                case let .failure(error):
                    problems.append("\(Layout.nearMissFolder(chapter))/\(name): \(error)")
                }
            }
        }
        return (entries, problems)
    }
}
