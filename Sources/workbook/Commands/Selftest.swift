import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
#if WORKBOOK_MAINTAINERS
import WorkbookMaintainer
#endif

extension Command {
    /// What `selftest` takes.
    struct SelftestFlags: FlagSet {
        let staticOnly = Flag("--static", help: "only check, with no build, in seconds, that every exercise's pieces correspond: manifest, starter, kept copy, solution, suite, hints, dimensions, lesson samples, recordings")
        let suiteRuns = Flag("--runs", .count(default: 5), help: "runs of every suite (default 5)")
        let corpusRuns = Flag("--corpus-runs", .count(default: 1), help: "runs of every near miss and alternative (default 1)")
        let noDrill = Flag("--no-drill", help: "skip the fault drill")
        let noCorpus = Flag("--no-corpus", help: "skip the near misses and alternatives")
        let recordRaces = Flag("--record-races", .path, help: "keep the TSan report of every race a starter or near miss is graded, as PATH/<name>.log (the reports `explain`'s tests draw), with PATH/<name>.sha256, the digest of the file it came from")
        let entries = Flag("--entries", .text(name: "NAMES"), help: "prove only these near misses and alternatives (names or prefixes, comma-separated, e.g. 5.1-two-locks,1.3-): no unit tests, suites or drills")
    }

    static let selftest: Command = Command(
        name: .selftest,
        abstract: "maintainers: every starter fails, every solution passes",
        arguments: .any("chapter"),
        discussion: """
        For maintainers: proves the workbook. First checks, from the files alone, that every exercise's \
        pieces correspond — its \(Layout.chapterManifest) entry, starter and kept copy, solution, suite, \
        hint ladder, dimensions, the lesson's section and samples, the recorded reports; `--static` does \
        only that, in seconds, and lists what `workbook new` left still to write. Then runs the grading \
        engine's unit tests, builds every chapter \
        under the Thread Sanitizer from \(SourceSet.solutions.folder)/ and from \(SourceSet.exercises.folder)/, \
        and runs each chapter's suite N times. Passes only if every solution passes with no TSan report \
        in every run and every starter fails in every run with the failure kind its \(Layout.chapterManifest) \
        names, in its own file — and, for a race, that `explain` can draw it in 80 columns.

        Then the near-miss corpus (\(Layout.testsFolder)/NearMisses): each plausible wrong answer is \
        swapped over its exercise and must fail with the kind its first line declares; each correct \
        alternative must pass with no TSan report.

        Then a fault drill: a copy of the package with faulty exercises swapped in (a solution, a trap, \
        an endless loop, a flood of fake output, a starter and tests that do not compile) is graded as \
        `check` would, and every verdict must be the expected one. Last, the classroom drill: a student \
        copy is exported, a student's edits graded with `check --classroom`, and three submissions with \
        `grade` — one of them trying to write outside its folder and to reach a listener the drill holds \
        on 127.0.0.1.
        """,
        flags: SelftestFlags.self,
        audience: .workbook,
        buildsChapters: true,
        run: { arguments in
            #if WORKBOOK_MAINTAINERS
            let workbook = try currentWorkbook()
            let chapters = try arguments.positional.isEmpty ? nil : arguments.positional.map { name in
                guard let chapter = workbook.chapter(named: name) else {
                    throw UsageError(message: "there is no chapter '\(name)'; the chapters are \(workbook.chapters.map { String($0.number) }.joined(separator: ", ")).")
                }
                return chapter
            }
            if arguments[\.staticOnly] {
                let start = Date()
                let check = StaticCheck(workbook: workbook, chapters: chapters)
                let findings = check.run()
                Terminal.say(check.rendered(findings, seconds: Date().timeIntervalSince(start)))
                return findings.contains { $0.kind == .problem } ? 1 : 0
            }
            var selftest = Selftest(workbook: workbook, platform: Terminal.platform, runs: arguments[\.suiteRuns], chapters: chapters,
                                    drill: !arguments[\.noDrill], progress: Terminal.progress)
            selftest.workbookExecutable = Bundle.main.executableURL
            selftest.artifactsKeptIn = Terminal.environment.keepArtifacts
            selftest.corpus = !arguments[\.noCorpus]
            selftest.corpusRuns = arguments[\.corpusRuns]
            selftest.recordRaces = arguments[\.recordRaces].map { URL(fileURLWithPath: $0) }
            selftest.entries = arguments[\.entries].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            let report = try selftest.run()
            Terminal.say(report.rendered(style: Terminal.style))
            return report.succeeded ? 0 : 1
            #else
            try runInMaintainersBuild(.selftest)
            #endif
        })
}
