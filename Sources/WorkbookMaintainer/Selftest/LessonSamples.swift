import Foundation
import WorkbookCore
import WorkbookEngine

/// The TSan reports the lessons print, and the recorded reports they are drawn from.
///
/// A lesson's sample sits in a fence that names its recording: ```` ```tsan starter-1.1 ````. Its
/// kind, the kind of each access, the file and line of each access's frame `#0`, and the SUMMARY's
/// file and line must be the recording's (``Shape``). The recording, in turn, keeps the SHA-256 of the
/// file it came from (`<name>.sha256`, written by `selftest --record-races`): when the starter or near
/// miss changes, the recording is stale, and so is every lesson sample drawn from it.
package enum LessonSamples {
    /// What a sample and a recording must agree on.
    package struct Shape: Equatable, Sendable, CustomStringConvertible {
        /// "Swift access race", "data race".
        package var title: String
        /// Each access's kind ("Read of size 8", "Previous write of size 1") and the place its frame
        /// `#0` names ("TokenStore.swift:29:15", "CountdownBlock.swift" when it kept no line).
        package var accesses: [String]
        /// The place the SUMMARY line names.
        package var summary: String?

        package init(title: String, accesses: [String], summary: String?) {
            self.title = title
            self.accesses = accesses
            self.summary = summary
        }

        package var description: String {
            "\(title); " + accesses.joined(separator: "; ") + "; SUMMARY \(summary ?? "—")"
        }
    }

    /// A fenced sample of a lesson.
    package struct Sample: Equatable, Sendable {
        /// The recording its fence names (`starter-1.1`), or `nil` for a report in a fence that names none.
        package var recording: String?
        package var text: String
        /// The fence's line in the lesson, from 1.
        package var line: Int
    }

    /// `File.swift`, `File.swift:26`, `File.swift:26:24`: the first Swift file a line names.
    package static func place(in line: Substring) -> String? {
        line.firstMatch(of: /([A-Za-z0-9_+\-]+\.swift)(:\d+)?(:\d+)?/).map { String($0.output.0) }
    }

    /// The shape of a report's text: a lesson's sample or a recorded log.
    package static func shape(of text: String) -> Shape? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.first(where: { $0.contains("WARNING: ThreadSanitizer:") }),
              let start = header.range(of: "WARNING: ThreadSanitizer:") else { return nil }
        var title = String(header[start.upperBound...])
        if let pid = title.range(of: " (pid=") { title = String(title[..<pid.lowerBound]) }
        var accesses: [String] = []
        var summary: String?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if TSanReport.accessHeader(trimmed) != nil, let at = trimmed.range(of: " at ") {
                let kind = String(trimmed[..<at.lowerBound])
                let frame = lines[(index + 1)...].first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#0 ") }
                accesses.append(kind + " " + (frame.flatMap { place(in: $0) } ?? "(no Swift file)"))
            } else if trimmed.hasPrefix("SUMMARY:") {
                summary = place(in: line)
            }
        }
        return Shape(title: title.trimmingCharacters(in: .whitespaces), accesses: accesses, summary: summary)
    }

    /// Every fenced sample of a lesson: those whose fence names a recording (```` ```tsan <name> ````),
    /// and the TSan reports in fences that name none.
    package static func samples(in lesson: String) -> [Sample] {
        var found: [Sample] = []
        var open: (info: String, line: Int, lines: [String])?
        for (index, line) in lesson.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    let text = block.lines.joined(separator: "\n")
                    let words = block.info.split(separator: " ")
                    if words.first == "tsan", words.count == 2 {
                        found.append(Sample(recording: String(words[1]), text: text, line: block.line))
                    } else if text.contains("WARNING: ThreadSanitizer") {
                        found.append(Sample(recording: nil, text: text, line: block.line))
                    }
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
                }
            } else {
                open?.lines.append(line)
            }
        }
        return found
    }
}

/// A recorded TSan report of a race-kind starter or near miss, which `explain`'s tests draw and the
/// lessons' samples are held to.
package struct RaceRecording: Sendable, Equatable {
    /// `starter-1.1`, `1.1-flag-outside-queue`: the log is `<name>.log` in ``Layout/raceRecordings``.
    package var name: String
    /// The file it was recorded from, relative to the package root: a kept starter copy or a near miss.
    package var source: String
    /// The exercise it is of.
    package var exerciseID: String
}

extension Layout {
    /// The recorded TSan reports (`selftest --record-races`), each with its source's digest.
    package static let raceRecordings = "\(fixturesFolder)/races"

    /// The stand-in built in place of a suite that plain `swift test` leaves out:
    /// `Tests/Chapter4SerialQueuesTests/LeftOut/Exercise4_5Tests.swift`.
    static func standIn(_ chapter: Chapter, _ exercise: Exercise) -> String {
        "\(testFolder(chapter))/LeftOut/\(exercise.suite).swift"
    }
}

extension Workbook {
    /// The recordings the workbook must keep: one per race-kind starter and race-kind near miss of
    /// `chapters`.
    package func raceRecordings(of chapters: [Chapter]? = nil) -> [RaceRecording] {
        let chapters = chapters ?? self.chapters
        let starters = chapters.flatMap { chapter in
            chapter.exercises.filter { $0.expectedFailure == .race }.map { exercise in
                RaceRecording(name: "starter-\(exercise.id)", source: Layout.starterCopy(chapter, exercise), exerciseID: exercise.id)
            }
        }
        let nearMisses = corpus(of: chapters).entries.filter { $0.expectation == .fails(.race) }.map { entry in
            RaceRecording(name: entry.name, source: layout.relative(entry.file), exerciseID: entry.exerciseID)
        }
        return starters + nearMisses
    }
}
