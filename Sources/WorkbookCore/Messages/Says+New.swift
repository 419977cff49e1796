import Foundation

/// What `selftest --static` and `workbook new` tell a maintainer: which piece of an exercise is
/// missing or does not match, where, and what to do.
extension Says {
    // MARK: The manifest

    package static func badExerciseID(_ id: String, chapter: Int) -> String {
        "exercise id '\(id)' is not \(chapter).<n>: an exercise of chapter \(chapter) is numbered \(chapter).1, \(chapter).2, …"
    }

    package static func duplicateID(_ id: String) -> String {
        "two exercises have the id \(id): give this one the next free number of its chapter."
    }

    package static func duplicateFile(_ id: String, file: String, other: String) -> String {
        "\(id)'s file \(file) is also \(other)'s: each exercise needs a file of its own."
    }

    package static func badFileName(_ id: String, file: String) -> String {
        "\(id)'s file '\(file)' is not a Swift file name in the chapter's folder (like `BoundedBuffer.swift`, no folder)."
    }

    package static func badSuiteName(_ id: String, suite: String, expected: String) -> String {
        "\(id)'s suite is '\(suite)'; name it \(expected) (the builder and the test summary find an exercise's tests by that name)."
    }

    package static func wholeChapterDoesNotCompile(_ id: String) -> String {
        "\(id) must not compile, and so must every other exercise of its chapter: give the chapter an exercise that compiles, or the builder has nothing left to build."
    }

    // MARK: Files

    package static func missing(_ piece: String, of id: String, at path: String, fix: String) -> String {
        "\(id)'s \(piece) \(path) is missing: \(fix)"
    }

    package static func unnamedFile(_ path: String, chapter: String) -> String {
        "\(path) is in no exercise of \(chapter)'s chapter.json: it is built with the chapter but graded by nothing; add it to an exercise or remove it."
    }

    package static func copyDiffers(_ copy: String, from starter: String) -> String {
        "\(copy) differs from \(starter): after changing a starter, `cp \(starter) \(copy)` (reset restores from the copy)."
    }

    package static func copyMissing(_ copy: String, of starter: String) -> String {
        "\(copy) is missing: `mkdir -p \((copy as NSString).deletingLastPathComponent) && cp \(starter) \(copy)` (reset restores from the copy)."
    }

    package static func unusedCopy(_ copy: String) -> String {
        "\(copy) is the kept copy of no exercise's starter: remove it, or name its file in chapter.json."
    }

    // MARK: Suites

    package static func suiteMissing(_ id: String, suite: String, at path: String) -> String {
        "\(id)'s suite \(suite) has no file \(path): write it (`workbook new` starts one), or the builder cannot leave the suite out with its exercise."
    }

    package static func suiteNotDeclared(_ id: String, suite: String, at path: String) -> String {
        "\(path) declares no `@Suite(\"\(id) …\", .gradedUnderTSan) struct \(suite)`: the grader finds \(id)'s tests by that type, and plain `swift test` names the exercise by its display name."
    }

    package static func orphanSuite(_ path: String) -> String {
        "\(path) is the suite of no exercise in chapter.json: name it in its exercise's \"suite\", or remove it."
    }

    package static func standInMissing(_ id: String, at path: String) -> String {
        "\(id)'s starter must not compile, so plain `swift test` leaves its suite out and builds a stand-in that says why; \(path) is missing (copy Tests/Chapter4SerialQueuesTests/LeftOut/Exercise4_5Tests.swift and change its names)."
    }

    // MARK: Hints

    package static func hintsMissing(_ path: String) -> String {
        "\(path) is missing: every exercise's hint ladder is kept there (`## N.M Title`, then `### Question`, `### Direction`, `### Shape`)."
    }

    package static func hintLadderMissing(_ id: String, in path: String) -> String {
        "\(path) has no `## \(id) …` section: write \(id)'s ladder (`### Question`, `### Direction`, `### Shape`)."
    }

    package static func hintSteps(_ id: String, are steps: [String], expected: [String]) -> String {
        "\(id)'s hint steps are \(steps.isEmpty ? "none" : steps.joined(separator: ", ")); a ladder is \(expected.joined(separator: ", ")), in that order."
    }

    package static func emptyHintStep(_ id: String, step: String) -> String {
        "\(id)'s hint step \(step) is empty."
    }

    package static func codeBeforeShape(_ id: String, step: String) -> String {
        "\(id)'s hint step \(step) shows code: only the last step, the shape, may (a ```swift fence with holes)."
    }

    package static func orphanHints(_ id: String) -> String {
        "hints for \(id), which chapter.json does not have: rename the section to its exercise, or remove it."
    }

    // MARK: Lessons

    package static func lessonMissing(_ path: String) -> String {
        "\(path) is missing: a chapter's lesson comes before its exercises."
    }

    package static func lessonSectionMissing(_ id: String, title: String, in path: String) -> String {
        "\(path) has no heading that names Exercise \(id): add `## Exercise \(id) — \(title)` where the lesson reaches it, before \"## Going further\"."
    }

    package static func unnamedSample(in path: String) -> String {
        "\(path) shows a TSan report in a fence that names no recording: open it with ```tsan <recording>, e.g. ```tsan starter-1.1, so that it is held to what the starter produces."
    }

    package static func sampleWithoutRecording(_ name: String, folder: String) -> String {
        "the sample names the recording \(name), which \(folder) does not have: record it (`workbook selftest <chapter> --record-races \(folder)`) or name one it has."
    }

    package static func sampleWithoutReport(_ name: String) -> String {
        "the sample of \(name) has no `WARNING: ThreadSanitizer:` line."
    }

    package static func sampleDrifted(_ name: String, lesson: String, recorded: String) -> String {
        "the sample of \(name) has drifted from its recording — lesson: \(lesson); recorded: \(recorded). Copy the recording's lines into the sample."
    }

    // MARK: Recordings

    package static func recordingMissing(_ name: String, id: String, folder: String) -> String {
        "\(name) is race-kind but \(folder) has no \(name).log: record it with `workbook selftest \(id.prefix { $0 != "." }) --record-races \(folder)` (explain's tests draw every race a starter or near miss is graded)."
    }

    package static func recordingUnused(_ path: String) -> String {
        "\(path) is the recording of no race-kind starter or near miss: remove it (with its .sha256)."
    }

    package static func recordingStale(_ name: String, source: String, folder: String) -> String {
        "\(source) has changed since \(name) was recorded from it: re-record it (`workbook selftest <chapter> --record-races DIR`, then copy \(name).log and \(name).sha256 into \(folder)) and check the lesson samples drawn from it."
    }

    package static func recordingDigestMissing(_ name: String, folder: String) -> String {
        "\(name).log has no \(name).sha256 beside it: record it with `workbook selftest <chapter> --record-races \(folder)`."
    }

    // MARK: Dimensions

    package static func dimensionToDo(_ id: String, _ dimension: String, _ what: String) -> String {
        "\(id) \(dimension) is still to declare (\(what))."
    }

    // MARK: To-dos

    /// A `TODO` line `workbook new` wrote (or anyone left) in one of an exercise's pieces.
    package static func toDo(_ piece: String, _ text: String) -> String {
        "\(piece) is still to write: \(text)"
    }
}

/// What `workbook new` tells a maintainer.
extension Says {
    package static func noSuchChapter(_ name: String, chapters: [Int]) -> String {
        "there is no chapter '\(name)'; the chapters are \(chapters.map(String.init).joined(separator: ", ")) (a number, ChapterN or the folder's name)."
    }

    package static let titleNeeded = "name the exercise, e.g. \"A bounded buffer\": one line, at most 70 characters, not starting with #."

    package static func badNewID(_ id: String, chapter: Int) -> String {
        "--id takes \(chapter).<n> for chapter \(chapter), not '\(id)'."
    }

    package static func idTaken(_ id: String, title: String) -> String {
        "exercise \(id) exists already (\(title)); leave out --id to take the next free number."
    }

    package static func badNewFile(_ file: String) -> String {
        "--file takes a Swift file name that is a type's name, like BoundedBuffer.swift (a capital letter, then letters and digits), not '\(file)'."
    }

    package static func noFileFromTitle(_ title: String) -> String {
        "no Swift type name can be made from the title '\(title)'; give one with --file, e.g. --file BoundedBuffer.swift."
    }

    package static func fileTaken(_ path: String) -> String {
        "\(path) exists already: `workbook new` never writes over a file; choose another name with --file, or remove it if it is a leftover."
    }

    package static func typeTaken(_ name: String, in path: String) -> String {
        "\(path) declares \(name) already, and the exercise's type takes its file's name; choose another with --file."
    }

    package static func sectionTaken(_ id: String, in path: String) -> String {
        "\(path) has a section for \(id) already; remove it, or choose another number with --id."
    }

    package static func manifestShape(_ path: String) -> String {
        "\(path) does not end the way `workbook new` can add to (its exercises array, then the closing brace, as `json.dumps(indent=2)` writes): add the exercise by hand."
    }

    package static func changedMeanwhile(_ path: String) -> String {
        "\(path) changed while `workbook new` was writing; nothing was changed — run it again."
    }
}
