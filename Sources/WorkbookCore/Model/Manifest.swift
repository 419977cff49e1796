import Foundation

/// One exercise: a file the learner edits, the suite that grades it, and how its starter fails.
package struct Exercise: Codable, Sendable, Hashable {
    /// "1.1", "3.2", …
    package var id: String
    package var title: String
    /// The file's name inside the chapter's folder.
    package var file: String
    /// The Swift Testing suite type that grades it, e.g. `Exercise1_1Tests`.
    package var suite: String
    /// How the untouched starter must fail; `workbook selftest` holds it to that.
    package var expectedFailure: FailureKind
    /// What its suite covers, dimension by dimension (``SuiteDimension``): a test and corpus entries
    /// per cell, or why the dimension does not apply.
    package var dimensions: [SuiteDimension: DimensionCoverage]? = nil
    // Its hints are not here, beside the learner's files, but in `Solutions/` (see ``HintFile``).

    package init(id: String, title: String, file: String, suite: String, expectedFailure: FailureKind,
                 dimensions: [SuiteDimension: DimensionCoverage]? = nil) {
        self.id = id
        self.title = title
        self.file = file
        self.suite = suite
        self.expectedFailure = expectedFailure
        self.dimensions = dimensions
    }
}

extension Exercise {
    /// `true` when its contract takes no timeout or deadline (its `deadlines` cell does not apply):
    /// then a wait inside it that gives up after a while is wrong whatever the time it picks.
    package var takesNoDeadline: Bool {
        if case .notApplicable = dimensions?[.deadlines] { return true }
        return false
    }
}

/// One chapter: a module in `Exercises/` with its lesson, and the same module in `Solutions/`.
package struct Chapter: Codable, Sendable, Hashable {
    package var number: Int
    package var title: String
    package var summary: String
    package var exercises: [Exercise]
    /// The folder (and module) name, e.g. `Chapter1Latch`. Filled in from the folder, not the JSON.
    package var name: String = ""

    private enum CodingKeys: String, CodingKey { case number, title, summary, exercises }

    /// The module of the chapter's tests.
    package var testModule: String { name + "Tests" }
    /// The short name `WORKBOOK_ONLY` and `swift test --filter` take, e.g. `Chapter1`.
    package var shortName: String { "Chapter\(number)" }
}

/// The whole workbook: every chapter found under `Exercises/`, in order.
package struct Workbook: Sendable {
    /// The package root (the folder with Package.swift).
    package let root: URL
    package let chapters: [Chapter]

    /// Reads `Exercises/*/chapter.json` under `root`.
    package init(root: URL) throws {
        self.root = root
        let layout = Layout(root: root)
        let folders = try FileManager.default.contentsOfDirectory(atPath: layout.url(SourceSet.exercises.folder).path).sorted()
        var chapters: [Chapter] = []
        for folder in folders {
            let manifest = layout.url(Layout.manifest(of: folder))
            guard FileManager.default.fileExists(atPath: manifest.path) else { continue }
            do {
                var chapter = try JSONDecoder().decode(Chapter.self, from: Data(contentsOf: manifest))
                chapter.name = folder
                chapters.append(chapter)
            } catch {
                throw WorkbookError.badManifest(path: manifest.path, reason: "\(error)")
            }
        }
        self.chapters = chapters.sorted { $0.number < $1.number }
    }

    /// Creates a workbook from chapters already in memory (tests use this).
    package init(root: URL, chapters: [Chapter]) {
        self.root = root
        self.chapters = chapters
    }

    /// Every exercise with its chapter, in order.
    package var allExercises: [ExerciseRef] {
        chapters.flatMap { chapter in chapter.exercises.map { ExerciseRef(chapter: chapter, exercise: $0) } }
    }

    /// Finds chapters and exercises by what a learner types: `1.2`, `1`, `Chapter1`, `chapter1latch`,
    /// `CountdownBlock.swift`. Throws with the list of valid names when nothing matches.
    package func select(_ names: [String]) throws -> [ExerciseRef] {
        if names.isEmpty { return allExercises }
        var picked: [ExerciseRef] = []
        for name in names {
            let found = match(name)
            guard !found.isEmpty else { throw WorkbookError.unknownName(name, known: knownNames) }
            for item in found where !picked.contains(where: { $0.exercise.id == item.exercise.id }) {
                picked.append(item)
            }
        }
        return picked
    }

    /// The single exercise a name means. Throws, as bad input, when it means none, or several (a
    /// chapter's), naming what it could be.
    package func exercise(named name: String) throws -> ExerciseRef {
        let found = match(name)
        if found.count == 1, let only = found.first { return only }
        if found.isEmpty { throw WorkbookError.unknownExercise(name, known: allExercises.map(\.exercise.id)) }
        throw WorkbookError.severalExercises(name, exercises: found.map(\.exercise.id))
    }

    /// The chapter a name means, or the chapter of the exercise it means (`lesson 1`, `lesson 1.2`).
    package func chapter(of name: String) throws -> Chapter {
        if let chapter = chapter(named: name) { return chapter }
        guard let found = match(name).first else { throw WorkbookError.unknownName(name, known: knownNames) }
        return found.chapter
    }

    /// The chapter a name means (`1`, `Chapter1`, `Chapter1Latch`).
    package func chapter(named name: String) -> Chapter? {
        let key = name.lowercased()
        return chapters.first { chapter in
            key == String(chapter.number) || key == chapter.shortName.lowercased() || key == chapter.name.lowercased()
        }
    }

    private func match(_ name: String) -> [ExerciseRef] {
        let key = name.lowercased()
        if let chapter = chapter(named: name) {
            return chapter.exercises.map { ExerciseRef(chapter: chapter, exercise: $0) }
        }
        return allExercises.filter { item in
            item.exercise.id == key || item.exercise.file.lowercased() == key
                || (item.exercise.file as NSString).deletingPathExtension.lowercased() == key
        }
    }

    private var knownNames: [String] {
        chapters.map(\.shortName) + allExercises.map(\.exercise.id)
    }

    /// The learner's file of an exercise.
    package func exerciseFile(_ chapter: Chapter, _ exercise: Exercise) -> URL {
        layout.url(Layout.exerciseFile(chapter, exercise))
    }

    /// The reference solution of an exercise.
    package func solutionFile(_ chapter: Chapter, _ exercise: Exercise) -> URL {
        layout.url(Layout.exerciseFile(chapter, exercise, in: .solutions))
    }

    /// The chapter's lesson.
    package func lessonFile(_ chapter: Chapter) -> URL {
        layout.url(Layout.lesson(chapter))
    }

    /// Finds the package root by walking up from `start` to the first folder holding Package.swift
    /// and an Exercises folder.
    package static func findRoot(from start: URL) -> URL? {
        var folder = start.standardizedFileURL
        while true {
            let fm = FileManager.default
            if fm.fileExists(atPath: folder.appendingPathComponent(Layout.packageManifest).path),
               fm.fileExists(atPath: folder.appendingPathComponent(SourceSet.exercises.folder).path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }
}
