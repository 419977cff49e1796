import Foundation
import WorkbookCore
import WorkbookEngine

/// `workbook new`: every piece of a new exercise, planned from what is on disk (``plan(_:in:reading:)``,
/// pure) and then written (``write(root:)``), never over a file.
///
/// The pieces: its entry in the chapter's manifest (its dimensions each still to declare), the
/// starter and its kept copy, the solution, a suite whose one test fails saying it is not written
/// yet, a hint ladder, and a section of the lesson. Each says `TODO` where a maintainer writes, so
/// that `selftest --static` passes at once and lists what is left, and the full selftest fails
/// until it is written.
package struct NewExercise: Sendable, Equatable {
    /// What the maintainer asked for.
    package struct Request: Sendable, Equatable {
        /// A chapter as `workbook` names one: `5`, `Chapter5`, `Chapter5BuggyCounter`.
        package var chapter: String
        package var title: String
        /// `5.4`; `nil` for the chapter's next free number.
        package var id: String?
        /// `BoundedBuffer.swift`; `nil` for one made from the title.
        package var file: String?

        package init(chapter: String, title: String, id: String? = nil, file: String? = nil) {
            self.chapter = chapter
            self.title = title
            self.id = id
            self.file = file
        }
    }

    /// One file to write.
    package struct Piece: Sendable, Equatable {
        /// Relative to the package root.
        package var path: String
        package var text: String
        /// The file's text the change was made from; `nil` for a new file. It is written only while
        /// the file still holds exactly this (or, for a new file, while there is none).
        package var replacing: String?
        /// Where to look first: the line (from 1) of its first `TODO`, or of what was added.
        package var line: Int
        /// What it is, for the list `workbook new` prints.
        package var what: String
    }

    package var chapter: Chapter
    package var exercise: Exercise
    /// In the order they are written: new files first, the manifest last.
    package var pieces: [Piece]

    /// The longest title a heading and a table take.
    static let titleLimit = 70

    // MARK: Planning

    /// Plans the exercise `request` asks for in `workbook`, reading the files it changes through
    /// `read` (a path relative to the root → its text, `nil` when there is none). Throws
    /// ``NewExerciseError`` with the sentence to show when the request is bad or a piece exists.
    package static func plan(_ request: Request, in workbook: Workbook,
                             reading read: (String) -> String?) throws(NewExerciseError) -> NewExercise {
        guard let chapter = workbook.chapter(named: request.chapter) else {
            throw .badRequest(Says.noSuchChapter(request.chapter, chapters: workbook.chapters.map(\.number)))
        }
        let title = request.title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty, title.count <= titleLimit, !title.contains(where: \.isNewline), !title.hasPrefix("#") else {
            throw .badRequest(Says.titleNeeded)
        }
        let id = try exerciseID(request.id, in: chapter)
        let file = try fileName(request.file, title: title)
        let type = String(file.dropLast(".swift".count))
        let exercise = Exercise(id: id, title: title, file: file, suite: StaticCheck.suiteName(of: id), expectedFailure: .wrong,
                                dimensions: Dictionary(uniqueKeysWithValues: SuiteDimension.allCases.map { ($0, .toDo(toDo(for: $0))) }))

        // Nothing of it may exist yet: no file, no type of that name in the chapter, no section.
        let newFiles = [Layout.exerciseFile(chapter, exercise), Layout.starterCopy(chapter, exercise),
                        Layout.exerciseFile(chapter, exercise, in: .solutions), Layout.suiteFile(chapter, exercise)]
        if let taken = newFiles.first(where: { read($0) != nil }) { throw .exists(Says.fileTaken(taken)) }
        if let other = chapter.exercises.first(where: { $0.file == file }) {
            throw .exists(Says.fileTaken(Layout.exerciseFile(chapter, other)))
        }
        for existing in chapter.exercises {
            for path in [Layout.exerciseFile(chapter, existing), Layout.exerciseFile(chapter, existing, in: .solutions)]
            where read(path).map({ declares(type, in: $0) }) == true {
                throw .exists(Says.typeTaken(type, in: path))
            }
        }
        let manifestPath = Layout.manifest(of: chapter.name), hintsPath = Layout.hints(chapter), lessonPath = Layout.lesson(chapter)
        guard let manifest = read(manifestPath) else { throw .cannotAdd(Says.manifestShape(manifestPath)) }
        let hints = read(hintsPath), lesson = read(lessonPath)
        if let hints, HintFile.parse(hints)[id] != nil { throw .exists(Says.sectionTaken(id, in: hintsPath)) }
        if let lesson, lesson.split(separator: "\n").contains(where: { $0.hasPrefix("#") && StaticCheck.heading($0, names: id) }) {
            throw .exists(Says.sectionTaken(id, in: lessonPath))
        }

        let starter = starterText(chapter, exercise, type: type)
        let solution = solutionText(chapter, exercise, type: type), suite = suiteText(chapter, exercise, type: type)
        let newManifest = try added(exercise, to: manifest, at: manifestPath)
        var pieces = [
            Piece(path: Layout.exerciseFile(chapter, exercise), text: starter, line: firstToDo(starter), what: "the starter"),
            Piece(path: Layout.starterCopy(chapter, exercise), text: starter, line: 1, what: "its kept copy, equal to it (reset restores from it)"),
            Piece(path: Layout.exerciseFile(chapter, exercise, in: .solutions), text: solution, line: firstToDo(solution), what: "the solution"),
            Piece(path: Layout.suiteFile(chapter, exercise), text: suite, line: firstToDo(suite),
                  what: "the suite: one test, which fails until the suite is written"),
        ]
        let newHints = (hints.map { $0.hasSuffix("\n") ? $0 + "\n" : $0 + "\n\n" } ?? hintsHeader(chapter)) + hintsSection(exercise)
        pieces.append(Piece(path: hintsPath, text: newHints, replacing: hints,
                            line: StaticCheck.place(of: "## \(id) ", in: newHints)?.line ?? 1, what: "the hint ladder: question, direction, shape"))
        let newLesson = lessonWithSection(lesson, chapter, exercise)
        pieces.append(Piece(path: lessonPath, text: newLesson, replacing: lesson,
                            line: StaticCheck.place(of: "## Exercise \(id) ", in: newLesson)?.line ?? 1, what: "the lesson's section"))
        pieces.append(Piece(path: manifestPath, text: newManifest, replacing: manifest,
                            line: StaticCheck.place(of: "\"id\": \"\(id)\"", in: newManifest)?.line ?? 1,
                            what: "the manifest's entry: expectedFailure \"wrong\" (what the skeleton's test gives), 10 dimensions to declare"))
        return NewExercise(chapter: chapter, exercise: exercise, pieces: pieces)
    }

    /// The id asked for, checked, or the chapter's next free one.
    static func exerciseID(_ asked: String?, in chapter: Chapter) throws(NewExerciseError) -> String {
        guard let asked else {
            let numbers = chapter.exercises.compactMap { Int($0.id.split(separator: ".").last ?? "") }
            return "\(chapter.number).\((numbers.max() ?? 0) + 1)"
        }
        guard asked.wholeMatch(of: /\d+\.[1-9]\d*/) != nil, asked.hasPrefix("\(chapter.number).") else {
            throw .badRequest(Says.badNewID(asked, chapter: chapter.number))
        }
        if let taken = chapter.exercises.first(where: { $0.id == asked }) { throw .exists(Says.idTaken(asked, title: taken.title)) }
        return asked
    }

    /// The file asked for, checked, or one made from the title: "A bounded buffer" → `BoundedBuffer.swift`.
    static func fileName(_ asked: String?, title: String) throws(NewExerciseError) -> String {
        if let asked {
            guard asked.wholeMatch(of: /[A-Z][A-Za-z0-9]*\.swift/) != nil else { throw .badRequest(Says.badNewFile(asked)) }
            return asked
        }
        var words = title.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        if words.count > 1, ["a", "an", "the"].contains(words[0].lowercased()) { words.removeFirst() }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = name.first, first.isLetter else { throw .badRequest(Says.noFileFromTitle(title)) }
        return name + ".swift"
    }

    /// Whether Swift `source` declares a type (or function) called `name`.
    static func declares(_ name: String, in source: String) -> Bool {
        source.range(of: #"\b(class|struct|enum|actor|protocol|typealias|func)\s+\#(name)\b"#, options: .regularExpression) != nil
    }

    static func firstToDo(_ text: String) -> Int {
        StaticCheck.place(of: StaticCheck.toDoMarker, in: text)?.line ?? 1
    }

    /// What a dimension's cell says until it is declared.
    static func toDo(for dimension: SuiteDimension) -> String {
        "\(dimension.summary): name the tests (and near misses) that cover it, or say why it does not apply"
    }

    // MARK: The pieces' text

    static func starterText(_ chapter: Chapter, _ exercise: Exercise, type: String) -> String {
        """
        // Exercise \(exercise.id) — \(exercise.title).
        //
        // Contract (the tests in \(Layout.suiteFile(chapter, exercise)) check each point):
        // - TODO: what \(type) promises, one clause a line; each clause gets a test of its own.
        //
        // Every member must be safe to call from any thread at any time.

        /// \(exercise.title).
        public final class \(type) {
            public init() {}
        }

        """
    }

    static func solutionText(_ chapter: Chapter, _ exercise: Exercise, type: String) -> String {
        """
        // Exercise \(exercise.id) — \(exercise.title): the reference solution.
        //
        // TODO: the starter (\(Layout.exerciseFile(chapter, exercise))) with its fix; it must pass every run with no TSan report.

        /// \(exercise.title).
        public final class \(type) {
            public init() {}
        }

        """
    }

    static func suiteText(_ chapter: Chapter, _ exercise: Exercise, type: String) -> String {
        """
        import \(chapter.name)
        import Testing
        import WorkbookTestSupport

        // TODO: one test per clause of \(type)'s contract, each judged as this chapter's other suites judge theirs.
        // The contract is at the top of \(Layout.exerciseFile(chapter, exercise)); chapter.json's "dimensions" say
        // which tests cover what.

        @Suite("\(exercise.id) \(type)", .gradedUnderTSan)
        struct \(exercise.suite) {
            @Test("\(exercise.id)'s tests are written")
            func testsAreWritten() {
                recordIssue("\(exercise.id)'s suite is not written yet: \(Layout.suiteFile(chapter, exercise)) has no test of \(type)'s contract.")
            }
        }

        """
    }

    static func hintsHeader(_ chapter: Chapter) -> String {
        """
        # Hints — Chapter \(chapter.number): \(chapter.title)

        `workbook hint <exercise>` shows these one step at a time: a question, then a nudge, then a
        skeleton with holes. None of them is the answer; `workbook solution` is.


        """
    }

    static func hintsSection(_ exercise: Exercise) -> String {
        """
        ## \(exercise.id) \(exercise.title)

        ### Question

        TODO: a question that makes the learner look at what is wrong in the starter, without naming the fix?

        ### Direction

        TODO: where to look, and what to ask of each line there; no code yet.

        ### Shape

        TODO: the shape of the fix, as Swift in a code fence, with holes (`/* … */`) where the answer goes.

        """
    }

    /// The lesson with the exercise's section before "## Going further" (or at its end).
    static func lessonWithSection(_ lesson: String?, _ chapter: Chapter, _ exercise: Exercise) -> String {
        let section = """
            ## Exercise \(exercise.id) — \(exercise.title)

            TODO: what \(exercise.id) asks, and the idea it needs, before the learner opens `\(exercise.file)`.


            """
        guard let lesson else { return "# Chapter \(chapter.number) — \(chapter.title)\n\n" + section }
        if let further = lesson.range(of: "\n## Going further") {
            return String(lesson[...further.lowerBound]) + section + lesson[lesson.index(after: further.lowerBound)...]
        }
        return (lesson.hasSuffix("\n") ? lesson + "\n" : lesson + "\n\n") + section
    }

    /// The manifest's text with `exercise` added at the end of its exercises, written as the
    /// manifests are (`json.dumps(indent=2)`); checked by reading it back.
    static func added(_ exercise: Exercise, to manifest: String, at path: String) throws(NewExerciseError) -> String {
        let entry = entryText(exercise)
        let text: String
        if let empty = manifest.range(of: "\"exercises\": []") {
            text = manifest.replacingCharacters(in: empty, with: "\"exercises\": [\n\(entry)\n  ]")
        } else if let end = manifest.range(of: "\n  ]\n}", options: .backwards) {
            text = manifest.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: ",\n" + entry)
        } else {
            throw .cannotAdd(Says.manifestShape(path))
        }
        guard let read = try? JSONDecoder().decode(Chapter.self, from: Data(text.utf8)),
              read.exercises.last == exercise,
              let before = try? JSONDecoder().decode(Chapter.self, from: Data(manifest.utf8)),
              Array(read.exercises.dropLast()) == before.exercises else {
            throw .cannotAdd(Says.manifestShape(path))
        }
        return text
    }

    /// The exercise's entry, indented as an element of the exercises array.
    static func entryText(_ exercise: Exercise) -> String {
        func quoted(_ text: String) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        }
        let fields = [("id", exercise.id), ("title", exercise.title), ("file", exercise.file), ("suite", exercise.suite),
                      ("expectedFailure", exercise.expectedFailure.rawValue)]
            .map { "      \(quoted($0.0)): \(quoted($0.1))" }
        let cells = SuiteDimension.allCases.compactMap { dimension -> String? in
            guard case let .toDo(what)? = exercise.dimensions?[dimension] else { return nil }
            return "        \(quoted(dimension.rawValue)): {\n          \"todo\": \(quoted(what))\n        }"
        }
        return "    {\n" + (fields + ["      \"dimensions\": {\n" + cells.joined(separator: ",\n") + "\n      }"]).joined(separator: ",\n") + "\n    }"
    }
}

// MARK: Writing

extension NewExercise {
    /// Writes every piece under `root`, all or nothing: first checks that no new file exists and that
    /// every file to change still holds the text it was planned from; on a failure midway, removes
    /// what it created and puts back what it changed.
    package func write(root: URL) throws(NewExerciseError) {
        let fm = FileManager.default
        for piece in pieces {
            let current = try? String(contentsOf: root.appendingPathComponent(piece.path), encoding: .utf8)
            guard current == piece.replacing else {
                throw piece.replacing == nil ? .exists(Says.fileTaken(piece.path)) : .cannotAdd(Says.changedMeanwhile(piece.path))
            }
        }
        var done: [Piece] = []
        do {
            for piece in pieces {
                let url = root.appendingPathComponent(piece.path)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(piece.text.utf8).write(to: url, options: piece.replacing == nil ? .withoutOverwriting : .atomic)
                done.append(piece)
            }
        } catch {
            for piece in done.reversed() {
                let url = root.appendingPathComponent(piece.path)
                if let before = piece.replacing { try? Data(before.utf8).write(to: url, options: .atomic) } else { try? fm.removeItem(at: url) }
            }
            throw .cannotAdd("\(error.localizedDescription); nothing was changed.")
        }
    }
}

/// Why `workbook new` wrote nothing; the sentence says what to do.
package enum NewExerciseError: Error, Equatable, CustomStringConvertible {
    /// The request cannot be read: no such chapter, a bad id, title or file name.
    case badRequest(String)
    /// A piece of it exists already; nothing is overwritten.
    case exists(String)
    /// A file cannot be added to as planned.
    case cannotAdd(String)

    package var description: String {
        switch self {
        case let .badRequest(sentence), let .exists(sentence), let .cannotAdd(sentence): sentence
        }
    }
}
