import Foundation

/// What the workbook tells a learner, declared in one place: the sentences of every finding the
/// engine writes itself (the tests' own words come from the suites), and the tool's own sentences
/// that more than one command says. Each takes structured values (ids, counts, paths) and returns the
/// words. By area: here the findings, problems and progress; `Says+Report` check's report,
/// `Says+Build` the build's and check's progress lines, `Says+Pattern` the pattern check's warnings,
/// `Says+Classroom` the classroom grade and what the classroom layer cannot use.
package enum Says {
    // MARK: Races

    /// Two accesses TSan saw unordered: `writes` of `accesses` were writes; `variable`: the name read
    /// at the learner's line, if any; `places`: each access's `file:line (write, thread …)`.
    static func race(writes: Int, of accesses: Int, variable: String?, places: [String]) -> String {
        let list = places.isEmpty ? "" : ": " + places.joined(separator: " and ")
        return raceClause(writes: writes, of: accesses, variable: variable) + list + "."
    }

    /// A race in one sentence that names no thread, so that the same code says the same from run
    /// to run: the lines of the learner's file, ascending.
    static func raceSummary(writes: Int, of accesses: Int, variable: String?, lines: [Int]) -> String {
        let lines = Array(Set(lines)).sorted().map(String.init)
        let at = switch lines.count {
        case 0: ""
        case 1: " (line \(lines[0]))"
        default: " (lines \(lines.dropLast().joined(separator: ", ")) and \(lines[lines.count - 1]))"
        }
        return raceClause(writes: writes, of: accesses, variable: variable) + at + "."
    }

    private static func raceClause(writes: Int, of accesses: Int, variable: String?) -> String {
        let verb = writes == accesses ? "changed" : (writes == 0 ? "read" : "used (at least one of them changing)")
        let what = variable.map { "`\($0)`" } ?? "the same memory"
        return "Two threads \(verb) \(what), and TSan saw nothing ordering the two accesses"
    }

    // MARK: Sentences

    /// The sentences of `text`, in order, each with its closing mark: a sentence ends at `.`, `!`
    /// or `?` followed by a space and a capital, a backtick or a quote (so "e.g. a latch" and
    /// "File.swift:12" do not end one).
    package static func sentences(in text: String) -> [String] {
        let words = text.split(whereSeparator: \.isWhitespace)
        var sentences: [String] = []
        var current: [Substring] = []
        for (index, word) in words.enumerated() {
            current.append(word)
            let next = index + 1 < words.count ? words[index + 1].first : nil
            if let last = word.last, ".!?".contains(last),
               next.map({ $0.isUppercase || "`\"“(".contains($0) }) ?? true {
                sentences.append(current.joined(separator: " "))
                current = []
            }
        }
        if !current.isEmpty { sentences.append(current.joined(separator: " ")) }
        return sentences
    }

    /// A report on the test's own plain data (`places`: each access's `File.swift:line (write, thread …)`):
    /// the learner's code let the step that reads it run without a happens-before edge from the write.
    static func orderingLost(places: [String], exercise: Exercise) -> String {
        "The Thread Sanitizer saw the test's own plain data with nothing ordering its two accesses: \(places.joined(separator: " and ")). The test writes it just before a call that \(exercise.file) must wait for (a callback, a caller's call) and reads it only in what that call leads to, so your code ran the later step too early, or with nothing ordering it after the call: a plain or relaxed flag or counter does not order memory; a group's leave() and notify, a semaphore, a serial queue or a lock do."
    }

    /// A report during an exercise's tests that names none of the learner's lines.
    static func raceOutsideFile(_ title: String, _ exercise: Exercise) -> String {
        "The Thread Sanitizer reported a \(title) while testing \(exercise.id), outside \(exercise.file). The test support or the toolchain may be at fault; run with --verbose to see the report."
    }

    /// A report whose frames name no file at all: symbolized without debug information (on a Mac,
    /// `atos` where no `llvm-symbolizer` was found).
    static func raceUnsymbolized(_ title: String, _ exercise: Exercise) -> String {
        "The Thread Sanitizer reported a \(title) while testing \(exercise.id), but its report names no source line (it was symbolized without debug information), so the grader cannot point at yours. On a Mac, install a swift.org toolchain or make `xcrun --find llvm-symbolizer` find one; `--verbose` shows the report."
    }

    /// A Swift toolchain older than the suites need.
    static func toolchainBelowFloor(found: Toolchain.Version, floor: Toolchain.Version) -> String {
        "Dispatch Workbook needs Swift \(floor) or later (its tests pass values into Swift Testing's exit tests, which Swift Testing accepts from \(floor) on) and this toolchain is Swift \(found): install Xcode \(Toolchain.floorXcode) or later on a Mac, or a Swift \(floor)+ toolchain from swift.org."
    }

    /// A report TSan cannot judge: both accesses inside the `withLock` of the one `Mutex` `name` (Linux).
    static func mutexFalseAlarm(_ name: String, _ places: [String]) -> String {
        "TSan printed a report on two lines inside `\(name).withLock` (\(places.joined(separator: " and "))), the same `Mutex`. On Linux TSan sees only part of what orders a `Mutex`: the uncontended lock and unlock, not the hand-off when threads contend for it (Exercises/MEASUREMENTS.md, M5). So this report cannot decide either way; the verdict rests on the tests' results. A serial queue, `NSLock` or `Atomic` is fully checked by TSan."
    }

    /// Under a failure's place: the test that found it.
    static func foundBy(test: String) -> String {
        "found by the test “\(test)”"
    }

    // MARK: Runs that ended badly

    static func suiteNotFound(_ chapter: Chapter, _ exercise: Exercise) -> String {
        "No test of \(exercise.id) ran: the suite \(SuiteID(chapter, exercise)) was not found in the test build."
    }

    /// The tests that were running when a run ended: " during “a”, “b”", or nothing.
    private static func during(_ unfinished: [String]) -> String {
        unfinished.isEmpty ? "" : " during “\(unfinished.joined(separator: "”, “"))”"
    }

    /// The watchdog stopped the tests: after `quiet` seconds without progress, else at the `limit`.
    static func stopped(quiet: Double?, limit: Double, during unfinished: [String]) -> String {
        let how = quiet.map { "made no progress for \(Int($0)) s" } ?? "did not finish within \(Int(limit)) s"
        return "The tests \(how) and were stopped\(during(unfinished)). Something blocks forever or loops without end: a wait nobody signals, a completion never called, a caller blocked behind work that needs it, or a loop whose condition never changes."
    }

    /// The test process died of `signal`; `trap`: the most telling line of its output.
    static func crashed(_ signal: Int32, during unfinished: [String], trap: String?) -> String {
        let causes = [SIGILL, SIGTRAP].contains(signal)
            ? " libdispatch or the Swift runtime stopped the program on purpose. Usual causes: `leave()` without a matching `enter()`, `sync` onto the queue the code is already running on, a force-unwrapped nil, an index out of range, an arithmetic overflow."
            : ""
        return "The test process crashed with \(signalName(signal))\(during(unfinished))" + (trap.map { ": \($0)." } ?? ".") + causes
    }

    /// The test process exited early with `code`.
    static func stoppedEarly(_ code: Int32, during unfinished: [String], trap: String?) -> String {
        "The test process stopped early (exit \(code))\(during(unfinished))" + (trap.map { ": \($0)" } ?? ".")
    }

    /// A crash placed by the debugger: at the learner's `line`, for `reason` (a ``Trap``'s explanation).
    static func crashLocated(line: Int?, of file: String, reason: String) -> String {
        "The test process crashed\(line.map { " at line \($0) of \(file)" } ?? ""): \(reason)."
    }

    /// What a SEGV under TSan usually is, when the output shows it.
    static let segvUnderTSan = "a memory access went wrong (SEGV) — what a data race on an Array or a Dictionary often ends in"

    static let sanitizerMemoryMapping = "The Thread Sanitizer could not start: this kernel randomizes memory more than TSan supports (\"unexpected memory mapping\"). Run the workbook under `setarch $(uname -m) -R`, or lower the randomization with `sudo sysctl vm.mmap_rnd_bits=28`."
    package static let runSetAside = "What the tests found under the Thread Sanitizer was set aside: this file uses a form TSan cannot judge (see the line named above) and runs differently under it, so the run says nothing either way about your code."
    static let sanitizerLoadedTooLate = "The Thread Sanitizer stopped the tests before grading anything: it was loaded after the test process started (\"Interceptors are not working\"), which on a Mac happens when the tests are not run through `swift test --sanitize=thread`. Nothing in your exercise caused it; `swift run workbook doctor` checks the set-up and says what to change."
    static let sanitizerFatal = "The Thread Sanitizer stopped with a fatal error before grading anything; see the output with --verbose."

    // MARK: Code that does not compile

    static func fileMissing(_ file: String, _ exercise: Exercise) -> String {
        "\(file) is missing. \(command("reset \(exercise.id)")) brings the starter back (a copy of anything it replaces goes to \(Layout.backupsFolder)/)."
    }

    static func chapterMissingFile(_ chapter: Chapter, _ file: String, _ missing: Exercise) -> String {
        "Chapter \(chapter.number) cannot compile while \(file) (exercise \(missing.id)) is missing; \(command("reset \(missing.id)")) brings its starter back."
    }

    static func chapterDoesNotCompile(_ chapter: Chapter, _ error: CompilerError) -> String {
        "Chapter \(chapter.number) does not compile, so none of its exercises can run: \(error.message) (in \((error.file as NSString).lastPathComponent))"
    }

    // MARK: Problems (``WorkbookError``)

    /// What a ``WorkbookError`` says.
    static func problem(_ error: WorkbookError) -> String {
        switch error {
        case let .badManifest(path, reason):
            "The chapter manifest \(path) cannot be read: \(reason)"
        case let .unknownName(name, known):
            "There is no chapter or exercise called '\(name)'. Try one of: \(known.joined(separator: ", "))."
        case let .unknownExercise(name, known):
            "There is no exercise called '\(name)'. Try one of: \(known.joined(separator: ", "))."
        case let .severalExercises(name, exercises):
            "'\(name)' names \(exercises.count) exercises, and this takes one of them: \(exercises.joined(separator: ", "))."
        case .notInWorkbook:
            "This is not inside the Dispatch Workbook (no Package.swift with an Exercises folder above the current directory)."
        case let .cannotStart(executable, reason):
            "Could not start \(executable): \(reason)."
        case .noSanitizer:
            "This Swift toolchain has no Thread Sanitizer, and the workbook grades every exercise under it. Install a toolchain from swift.org (Linux x86_64/arm64 or macOS; Xcode's toolchain on macOS) — TSan is part of it."
        case let .buildFailedOutsideChapters(details):
            "The build failed outside the chapters, so nothing can be graded.\n" + details
        case .buildKeepsFailing:
            "The build still failed after leaving out everything that did not compile; run `swift build --build-tests --sanitize=thread` to see why."
        case let .damagedProgressFile(path):
            "The progress file \(path) is damaged. Move it away (your exercises are not in it) and run the command again."
        case let .newerProgressFile(path, version):
            "The progress file \(path) was written by a newer workbook (format \(version)); update the workbook."
        case let .starterNotKept(exercise, keptAt):
            "The starter of \(exercise) is neither kept in \(keptAt) nor in git history here. Nothing was changed."
        case let .starterNotInGit(exercise, commit, gitSaid):
            "The starter of \(exercise) could not be read from git (commit \(commit.prefix(10))): \(gitSaid). Nothing was changed."
        case let .backupFailed(file, backup):
            "Could not save a backup of \(file) at \(backup); nothing was changed."
        case let .drillSetUp(what):
            "The drill could not set itself up: \(what)."
        case let .maintainersBuildFailed(output):
            "Building the tool with the maintainers' commands (`\(BuildSettings.engine)=\(BuildSettings.maintainers) swift build --product \(Layout.toolProduct)`) failed:\n"
                + output.trimmingCharacters(in: .whitespacesAndNewlines)
        case let .maintainersCommandsMissing(command):
            "The tool was built with the maintainers' commands, and still has no `\(command)`: the build in the package's scratch folder is not the one that was started. Run `\(BuildSettings.engine)=\(BuildSettings.maintainers) swift run \(Layout.toolProduct) \(command)`."
        }
    }

    // MARK: The learner's progress

    /// Files a learner should not have changed did change since the workbook was set up.
    package static func frozenFilesChanged(_ files: [String]) -> String {
        "Warning: files outside \(SourceSet.exercises.folder)/ changed since the workbook was set up, so these verdicts may not mean what they say: "
            + files.prefix(5).joined(separator: ", ") + (files.count > 5 ? ", …" : "")
            + ". Only the files in \(SourceSet.exercises.folder)/ are yours to edit."
    }

    /// Exercises that passed before and fail now.
    package static func undone(_ ids: [String]) -> String {
        let list = ids.joined(separator: ", ")
        return ids.count == 1
            ? "\(list) passed before and fails now, so it is no longer counted as done."
            : "\(list) passed before and fail now, so they are no longer counted as done."
    }
}
