import Foundation
import WorkbookCore

/// What a successful build left out, kept beside it so that the next build starts without it.
extension Builder {
    /// One exercise left out by the last successful build in this scratch path, with a fingerprint
    /// of everything its chapter's build reads.
    struct Remembered: Codable, Equatable {
        var chapter: String
        var exercise: String
        var errors: [CompilerError]
        var fingerprint: String
    }

    var memoFile: URL { scratchPath.appendingPathComponent("workbook-left-out-\(sources.rawValue).json") }

    /// The exclusions the last build here made, for chapters of `chapters` whose files (sources,
    /// tests, Package.swift) are byte for byte the same as then.
    func rememberedExclusions(of chapters: [Chapter]) -> [ExcludedExercise] {
        guard let data = try? Data(contentsOf: memoFile),
              let entries = try? JSONDecoder().decode([Remembered].self, from: data) else { return [] }
        return entries.compactMap { entry in
            guard let chapter = chapters.first(where: { $0.name == entry.chapter }),
                  let exercise = chapter.exercises.first(where: { $0.id == entry.exercise }),
                  entry.fingerprint == fingerprint(of: chapter) else { return nil }
            return ExcludedExercise(chapter: chapter, exercise: exercise, errors: entry.errors)
        }
    }

    /// Writes down what a successful build left out (nothing: removes the note).
    func remember(_ excluded: [ExcludedExercise]) {
        guard !excluded.isEmpty else {
            try? FileManager.default.removeItem(at: memoFile)
            return
        }
        let entries = excluded.map { Remembered(chapter: $0.chapter.name, exercise: $0.exercise.id, errors: $0.errors,
                                                fingerprint: fingerprint(of: $0.chapter)) }
        guard let data = try? JSONEncoder().encode(entries) else { return }
        try? FileManager.default.createDirectory(at: scratchPath, withIntermediateDirectories: true)
        try? data.write(to: memoFile, options: .atomic)
    }

    /// A hash (FNV-1a, 64 bits) of the names and bytes of the chapter's source and test files and of
    /// Package.swift: what decides whether the chapter compiles, and with which exercises.
    func fingerprint(of chapter: Chapter) -> String {
        var print = Fingerprint()
        let folders = [Layout.chapterFolder(chapter, in: sources), Layout.testFolder(chapter)]
        var files = [Layout.packageManifest]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: workbook.root.appendingPathComponent(folder).path)) ?? []
            files += names.sorted().map { "\(folder)/\($0)" }
        }
        for file in files {
            print.mix(file.utf8)
            print.mix((try? Data(contentsOf: workbook.root.appendingPathComponent(file))) ?? Data())
        }
        return print.text
    }
}
