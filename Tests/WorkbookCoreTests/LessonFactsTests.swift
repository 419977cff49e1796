import Foundation
import Testing
@testable import WorkbookCore
import WorkbookEngineTestSupport

/// Keeps wrong platform facts out of everything a learner reads: the README and the documents it
/// links to, the lessons, the measurements page, the hints, the exercise and solution files (their contracts and comments), the first
/// lines of the near misses, the chapters' test suites (their failure messages), and the grader's
/// messages.
///
/// Each rule is a phrase that once said something false, with the source that shows it false, so
/// that a failure says what to write instead.
@Suite("Lesson facts")
struct LessonFactsTests {
    struct Rule: Sendable {
        var pattern: String
        var why: String
    }

    static let wrongPhrases: [Rule] = [
        Rule(pattern: #"shared/|shared notes|platform notes|workbook's notes"#,
             why: "cite a file the learner has: Exercises/MEASUREMENTS.md"),
        Rule(pattern: #"however far apart in time"#,
             why: "TSan compares an access with the few accesses it still remembers for that memory (tsan_defs.h, kShadowCnt = 4 per 8 bytes; MEASUREMENTS.md M3)"),
        Rule(pattern: #"(released|deallocated|freed|goes away|let go)[^.;]{0,30}while (it is )?(still )?entered((?!\bnot\b)[^.;]){0,40}(crash|trap)"#,
             why: "an entered group is leaked, not a crash: dispatch_group_enter retains it (src/semaphore.c, rdar://problem/22318411; MEASUREMENTS.md M8)"),
        Rule(pattern: #"group[^.;]{0,60}(still entered|while entered)[^.;]{0,30}(crashes|traps)"#,
             why: "an entered group is leaked, not a crash (MEASUREMENTS.md M8)"),
        Rule(pattern: #"(crash|trap)(es|s)? on (one platform|Apple platforms)[^.;]{0,40}(leak|entered)"#,
             why: "an entered group is leaked on every current platform (MEASUREMENTS.md M8)"),
        Rule(pattern: #"Apple platforms (trap|crash)[^.;]{0,20}(:|when)[^.;]{0,40}group"#,
             why: "an entered group is leaked on every current platform (MEASUREMENTS.md M8)"),
        Rule(pattern: #"older (libdispatch )?releases[^.;]{0,40}crash"#,
             why: "Apple's releases have retained an entered group since libdispatch-500.10.1 (2015); do not teach the old behaviour"),
        Rule(pattern: #"Apple platforms print|printed on Apple platforms|messages? (is|are) printed|Apple platforms with the message"#,
             why: "DISPATCH_CLIENT_CRASH records its message for the crash report, not the program's output (src/internal.h); say \"the crash report says\""),
        Rule(pattern: #"about every access|every access to a class's stored property"#,
             why: "Swift's access-race reports come from modify (inout, mutating) accesses, not from every access"),
        Rule(pattern: #"invisible to (TSan|the Thread Sanitizer)|TSan (on Linux )?(does not|cannot) see .?Mutex|Mutex.? is invisible"#,
             why: "Mutex is partly visible to TSan on Linux: say what was measured (MEASUREMENTS.md M5)"),
        Rule(pattern: #"count \*?when they are called|does not exist for them|only knows its count at the moment"#,
             why: "notify fires the first time the count is zero after it is called; work entered while the count is above zero is waited for (src/semaphore.c, dispatch_group_leave / _dispatch_group_wake)"),
        Rule(pattern: #"shows errors only|show errors only"#,
             why: "workbook check shows the compiler's warnings about the learner's file too"),
        Rule(pattern: #"(Linux toolchain|on Linux)[^.;]{0,30}barrier[^.;]{0,120}(not to act|loses)"#,
             why: "a barrier work item loses its flag under TSan's interceptors, on every platform; the API keeps it (MEASUREMENTS.md M4)"),
        Rule(pattern: #"design is sound"#,
             why: "the modals article's [weak self] in dismissAction is the very trap chapter 3 teaches"),
        Rule(pattern: #"starting at 0 is the event pattern, and the thread sleeps only"#,
             why: "for Rocket's recipe 2 code (wait, then call, then signal) a semaphore at 0 does block forever"),
        Rule(pattern: #"(the )?global queues and (every|the) queues? you create share"#,
             why: "a serial queue you create targets an overcommit root queue; the constrained cap is the global and concurrent queues' (src/queue.c; MEASUREMENTS.md M9)"),
        Rule(pattern: #"what a semaphore could not do"#,
             why: "a semaphore can let every waiter through if each passes the signal on (a turnstile; MEASUREMENTS.md M12)"),
        Rule(pattern: #"(?<!x86-64 with a )bare SIGILL(?! or SIGTRAP)"#,
             why: "libdispatch traps with __builtin_trap (src/internal.h, _dispatch_hardware_crash): SIGILL on x86-64, SIGTRAP on arm64 (MEASUREMENTS.md M7)"),
        Rule(pattern: #"main\.sync[^.;]{0,80}on Apple platforms"#,
             why: "the main queue is bound to the main thread on Linux too (src/queue.c, libdispatch_init); main.sync on the main thread trapped there (MEASUREMENTS.md M7)"),
        Rule(pattern: #"a group per load"#,
             why: "the video-library article creates one group in init and uses it for every load"),
        Rule(pattern: #"SE-0255\)?,? a function, getter or closure"#,
             why: "single-expression closures always had implicit returns; SE-0255 gave them to functions and getters"),
        Rule(pattern: #"pthread_rwlock_t`?\)? does what"#,
             why: "glibc's default rwlock prefers readers (PTHREAD_RWLOCK_DEFAULT_NP = PTHREAD_RWLOCK_PREFER_READER_NP): readers can starve a writer, which 4.3's contract forbids"),
        Rule(pattern: #"not a hang but a crash"#,
             why: "libdispatch recognises only the simple case of a sync onto the current queue; other self-waits hang"),
        Rule(pattern: #"(unbalanced leave|never entered for them)[^.;]{0,40}traps"#,
             why: "dispatch_group_leave traps only when the count is zero at that moment; otherwise it silently uncounts other work (src/semaphore.c)"),
        Rule(pattern: #"so does the memory model"#,
             why: "libdispatch documents no memory ordering for semaphores; say what TSan's interceptor does (MEASUREMENTS.md M2)"),
        Rule(pattern: #"(all|every one of) (its workers|of its workers|of them|them|its threads) (are|is) blocked"#,
             why: "libdispatch's monitor also adds a worker when fewer are runnable than CPUs (src/event/workqueue.c, _dispatch_workq_monitor_pools; MEASUREMENTS.md M9)"),
    ]

    /// What a learner reads: (path relative to the package root, text).
    static func readable() throws -> [(path: String, text: String)] {
        let root = Fixture.packageRoot
        let fm = FileManager.default
        var found: [(String, String)] = []
        func add(_ relative: String, firstLineOnly: Bool = false) {
            guard let text = try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8) else { return }
            found.append((relative, firstLineOnly ? String(text.prefix { $0 != "\n" }) : text))
        }
        add("README.md")
        let documents = root.appendingPathComponent(Layout.documentationFolder)
        for file in (try? fm.contentsOfDirectory(atPath: documents.path))?.sorted() ?? [] where file.hasSuffix(".md") {
            add("\(Layout.documentationFolder)/\(file)")
        }
        add("Exercises/MEASUREMENTS.md")
        for set in ["Exercises", "Solutions"] {
            for chapter in try fm.contentsOfDirectory(atPath: root.appendingPathComponent(set).path).sorted() {
                let folder = root.appendingPathComponent("\(set)/\(chapter)")
                guard let files = try? fm.contentsOfDirectory(atPath: folder.path) else { continue }
                for file in files.sorted() where file.hasSuffix(".swift") || file.hasSuffix(".md") {
                    add("\(set)/\(chapter)/\(file)")
                }
            }
        }
        let nearMisses = root.appendingPathComponent("Tests/NearMisses")
        for chapter in (try? fm.contentsOfDirectory(atPath: nearMisses.path))?.sorted() ?? [] {
            for file in (try? fm.contentsOfDirectory(atPath: nearMisses.appendingPathComponent(chapter).path))?.sorted() ?? [] {
                add("Tests/NearMisses/\(chapter)/\(file)", firstLineOnly: true)
            }
        }
        // The chapters' suites: their failure messages are read by learners too.
        let tests = root.appendingPathComponent("Tests")
        for folder in (try? fm.contentsOfDirectory(atPath: tests.path))?.sorted() ?? [] where folder.hasPrefix("Chapter") {
            for file in (try? fm.contentsOfDirectory(atPath: tests.appendingPathComponent(folder).path))?.sorted() ?? [] where file.hasSuffix(".swift") {
                add("Tests/\(folder)/\(file)")
            }
        }
        let messages = root.appendingPathComponent("Sources/WorkbookCore/Messages")
        for file in (try? fm.contentsOfDirectory(atPath: messages.path))?.sorted() ?? [] where file.hasSuffix(".swift") {
            add("Sources/WorkbookCore/Messages/\(file)")
        }
        return found
    }

    /// The text with line breaks, comment slashes and quote marks folded away, so that a phrase
    /// broken over two lines is still one phrase.
    static func flattened(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                var line = line.trimmingCharacters(in: .whitespaces)
                for prefix in ["///", "//", ">"] where line.hasPrefix(prefix) {
                    line = String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
                    break
                }
                return line
            }
            .joined(separator: " ")
    }

    @Test("the files a learner reads exist where this test looks")
    func filesAreFound() throws {
        let files = try Self.readable()
        #expect(files.contains { $0.path == "Exercises/MEASUREMENTS.md" })
        #expect(files.contains { $0.path == "README.md" })
        #expect(Set(["HowGradingWorks.md", "Platforms.md", "Teaching.md", "Maintaining.md"].map { "\(Layout.documentationFolder)/\($0)" })
            .isSubset(of: files.map(\.path)), "the documents the README links to")
        #expect(files.filter { $0.path.hasSuffix("README.md") }.count >= 5)
        #expect(files.filter { $0.path.hasSuffix("hints.md") }.count >= 5)
        #expect(files.filter { $0.path.hasPrefix("Tests/NearMisses/") }.count > 100)
    }

    @Test("no wrong platform fact is stated anywhere a learner reads")
    func noWrongPhrases() throws {
        for file in try Self.readable() {
            let text = Self.flattened(file.text)
            for rule in Self.wrongPhrases {
                guard let range = text.range(of: rule.pattern, options: [.regularExpression, .caseInsensitive]) else { continue }
                let start = text.index(range.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex
                let end = text.index(range.upperBound, offsetBy: 60, limitedBy: text.endIndex) ?? text.endIndex
                Issue.record("\(file.path): “…\(text[start..<end])…” — \(rule.why)")
            }
        }
    }

    /// Apple's trap messages go to the crash report, so every paragraph that quotes one says so
    /// (or cites the source line it comes from).
    @Test("every quoted Apple trap message is said to be in the crash report")
    func trapMessagesAreInTheCrashReport() throws {
        let messages = ["BUG IN CLIENT OF LIBDISPATCH", "already owned by current thread", "Unbalanced call to dispatch_group_leave",
                        "Semaphore object deallocated while in use", "Group object deallocated while in use"]
        for file in try Self.readable() where file.path.hasSuffix(".md") || (!file.path.hasPrefix("Sources/") && !file.path.hasPrefix("Tests/Chapter")) {
            let paragraphs = file.text.components(separatedBy: "\n\n").map(Self.flattened)
            for paragraph in paragraphs where messages.contains(where: paragraph.contains) {
                let cites = paragraph.localizedCaseInsensitiveContains("crash report") || paragraph.contains("src/")
                    || paragraph.contains("semaphore.c") || paragraph.contains("queue.c")
                #expect(cites, "\(file.path): a paragraph quotes Apple's trap message without saying it is in the crash report: “\(paragraph.prefix(240))…”")
            }
        }
    }

    @Test("the grader's explanation of the group trap says how it is reached: by over-releasing")
    func groupTrapIsAnOverRelease() {
        #expect(Trap.groupInUse.reason.localizedCaseInsensitiveContains("over-release"),
                "Trap.groupInUse.reason: \(Trap.groupInUse.reason) — an entered group is leaked, not freed (MEASUREMENTS.md M8)")
    }

    @Test("every lesson cites its measurements from the measurements page, and every cited entry exists")
    func measurementsAreCited() throws {
        let root = Fixture.packageRoot
        let page = try String(contentsOf: root.appendingPathComponent("Exercises/MEASUREMENTS.md"), encoding: .utf8)
        let entries = Set(page.matches(of: /\*\*(M\d+) —/).map { String($0.output.1) })
        #expect(entries.count >= 10)
        for chapter in Fixture.workbook.chapters {
            let lesson = try String(contentsOf: Fixture.workbook.lessonFile(chapter), encoding: .utf8)
            #expect(lesson.contains("MEASUREMENTS.md"), "\(chapter.name)'s lesson does not point to MEASUREMENTS.md")
            for match in lesson.matches(of: /\bM(\d+)\b/) where !entries.contains("M\(match.output.1)") {
                Issue.record("\(chapter.name)'s lesson cites M\(match.output.1), which MEASUREMENTS.md does not have")
            }
        }
        for file in try Self.readable() where file.path == "README.md" || file.path.hasPrefix("\(Layout.documentationFolder)/") {
            for match in file.text.matches(of: /\bM(\d+)\b/) where !entries.contains("M\(match.output.1)") {
                Issue.record("\(file.path) cites M\(match.output.1), which MEASUREMENTS.md does not have")
            }
        }
    }

    @Test("every relative link in what a learner reads reaches a file, and its anchor a heading there")
    func linksResolve() throws {
        let root = Fixture.packageRoot
        var checked = 0
        for file in try Self.readable() where file.path.hasSuffix(".md") {
            let folder = root.appendingPathComponent(file.path).deletingLastPathComponent()
            for match in Markdown.prose(file.text).matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let url = parts[0].isEmpty ? root.appendingPathComponent(file.path)
                    : folder.appendingPathComponent(parts[0]).standardizedFileURL
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                    Issue.record("\(file.path): the link \(target) reaches nothing")
                    continue
                }
                checked += 1
                guard parts.count == 2 else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(Self.anchors(Markdown.prose(text)).contains(parts[1]), "\(file.path): the link \(target) names no heading there")
            }
        }
        #expect(checked >= 20)
    }

    /// The anchors GitHub gives a Markdown file's headings: lowercased, punctuation dropped, spaces as hyphens.
    static func anchors(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            return heading.lowercased()
                .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                .replacingOccurrences(of: " ", with: "-")
        })
    }
}
