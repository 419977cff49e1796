import Foundation
import WorkbookKit

extension Command {
    static let selftest = Command(
        name: "selftest",
        help: """
        USAGE: workbook selftest [--runs N] [chapter…]

        For maintainers: proves the workbook. Runs the grading engine's unit tests, builds every chapter
        under the Thread Sanitizer from Solutions/ and from Exercises/, and runs each chapter's suite N
        times. Passes only if every solution passes with no TSan report in every run and every starter
        fails in every run with the failure kind its chapter.json names, in its own file.

        Then the near-miss corpus (Tests/NearMisses): each plausible wrong answer is swapped over its
        exercise and must fail with the kind its first line declares; each correct alternative must
        pass with no TSan report (one run each unless --corpus-runs says more).

        Then a fault drill: a copy of the package with faulty exercises swapped in (a solution, a
        trap, an endless loop, a flood of fake output, a compile error) is graded as `check` would,
        and every verdict must be the expected one.

        OPTIONS:
          --runs N    runs of every suite (default 5)
          --corpus-runs N
                      runs of every near miss and alternative (default 1)
          --no-drill  skip the fault drill
          --no-corpus skip the near misses and alternatives
          -h, --help  show this help
        """,
        options: ["--no-drill", "--no-corpus"],
        valued: ["--runs", "--corpus-runs"],
        run: { options in
            let workbook = try currentWorkbook()
            let runs = try options.count("--runs", default: 5)
            let chapters = try options.positional.isEmpty ? nil : options.positional.map { name in
                guard let chapter = workbook.chapter(named: name) else {
                    throw UsageError(message: "there is no chapter '\(name)'.")
                }
                return chapter
            }
            var selftest = Selftest(workbook: workbook, runs: runs, chapters: chapters, drill: !options.has("--no-drill"), progress: progressLine)
            selftest.workbookExecutable = Bundle.main.executableURL
            selftest.corpus = !options.has("--no-corpus")
            selftest.corpusRuns = try options.count("--corpus-runs", default: 1)
            let report = try selftest.run()
            print(report.rendered(style: .automatic))
            return report.succeeded ? 0 : 1
        })
}
