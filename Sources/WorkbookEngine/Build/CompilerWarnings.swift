import Foundation
import WorkbookCore

/// The compiler's warnings about the learner's own files, shown beside the verdict (the lessons cite
/// some, e.g. a setter's unused `newValue`).
///
/// SwiftPM prints a file's warnings only when it compiles that file, and an incremental build skips
/// files that did not change. So what a build said about a file is kept in the build's scratch
/// folder, with a fingerprint of the file's bytes, and said again while the file is unchanged.
struct CompilerWarnings: Sendable {
    /// Where the warnings are kept between checks.
    var memory: URL

    /// A kept file's warnings, with the fingerprint of the bytes they are about.
    private struct Kept: Codable {
        var fingerprint: String
        var warnings: [PatternWarning]
    }

    /// The warnings of each of `files` (paths relative to the package) after a build whose output
    /// was `output`, each file fingerprinted as the check read it (`sources`); what is kept is
    /// brought up to date.
    func update(output: String, files: [String], sources: LearnerSources) -> [String: [PatternWarning]] {
        var kept = (try? JSONDecoder().decode([String: Kept].self, from: Data(contentsOf: memory))) ?? [:]
        let fresh = Builder.compilerWarnings(in: output)
        var result: [String: [PatternWarning]] = [:]
        for file in files {
            let print = Self.fingerprint(Data((sources.texts[file] ?? "").utf8))
            let said = fresh.filter { $0.file.hasSuffix("/" + file) }
                .map { PatternWarning(rule: "compiler", line: $0.line, message: $0.message) }
            // Unchanged and not compiled again: what was said last time still holds. Changed: it was
            // compiled again, and what it said now (maybe nothing) is the truth.
            if said.isEmpty, let before = kept[file], before.fingerprint == print {
                result[file] = before.warnings
            } else {
                kept[file] = Kept(fingerprint: print, warnings: said)
                result[file] = said
            }
        }
        if let data = try? JSONEncoder().encode(kept) {
            try? FileManager.default.createDirectory(at: memory.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? data.write(to: memory, options: .atomic)
        }
        return result
    }

    static func fingerprint(_ data: Data) -> String {
        var print = Fingerprint()
        print.mix(data)
        return print.text
    }
}
