import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: the gradebook as a web page")
struct ClassroomHTMLTests {
    typealias Cell = Gradebook.Cell

    /// Nine students over four exercises: 1.3 trips the most (five), then 1.2 (three), 1.1 (one),
    /// 3.1 none.
    func classOfNine() throws -> Gradebook {
        let verdicts: [String: [ClassroomVerdict]] = [
            "1.1": [.pass, .pass, .pass, .pass, .pass, .pass, .failed(.compile), .tampered, .notGraded],
            "1.2": [.failed(.race), .failed(.race), .failed(.wrong), .pass, .pass, .pass, .pass, .pass, .notGraded],
            "1.3": [.failed(.hang), .failed(.hang), .failed(.hang), .failed(.crash), .failed(.race), .pass, .pass, .pass, .notGraded],
            "3.1": [.pass, .pass, .pass, .pass, .pass, .pass, .pass, .pass, .notGraded],
        ]
        let names = ["ana", "ben", "<img src=x onerror=alert(1)>", "dev & co", "eli", "fay", "gus", "hal", "ivy"]
        let rows = names.enumerated().map { index, name in
            Gradebook.Row(student: name, cells: verdicts.mapValues { column in
                Cell(points: column[index] == .pass ? 10 : 0, verdict: column[index],
                     reason: column[index] == .pass ? "" : "\(column[index].label) <in> \(name)")
            }, tampered: index == 7 ? ["Tests/Chapter1LatchTests/<script>.swift"] : [],
               note: index == 8 ? "did not build: \"quote\" & 'apostrophe' <b>" : "")
        }
        return try Gradebook(exercises: ["1.1", "1.2", "1.3", "3.1"], maxPoints: ["1.1": 10, "1.2": 10, "1.3": 10, "3.1": 10], rows: rows)
    }

    @Test("one page: a table with a row per student and a cell per exercise coloured by verdict, totals, a legend")
    func structure() throws {
        let book = try classOfNine()
        let html = GradebookHTML.render(book)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<table>").count == 2)
        #expect(html.components(separatedBy: "<tr><th scope=\"row\"").count - 1 == 9)
        #expect(html.components(separatedBy: "<td class=\"cell ").count - 1 == 9 * 4)
        #expect(html.contains("<td class=\"cell v-not-graded\" title=\"1.1: not graded — not graded &lt;in&gt; ivy\"><b>0</b><small>not graded</small></td>"))
        #expect(html.contains("<td class=\"cell v-pass\" title=\"3.1: passed\"><b>10</b>"))
        let ana = try #require(html.split(separator: "\n").first { $0.contains(">ana</th>") })
        #expect(ana.hasSuffix("<td class=\"total\">20</td><td class=\"notes\"></td></tr>"), "ana passed 1.1 and 3.1")
        #expect(html.contains("<th scope=\"col\">Total (of 40)</th>"))
        #expect(html.contains("40 points possible"))
        for verdict in ClassroomVerdict.allCases {
            let name = "v-" + verdict.code.replacingOccurrences(of: " ", with: "-")
            #expect(html.contains(".cell.\(name) {"), "a colour for \(verdict)")
            #expect(html.contains("<span class=\"swatch \(name)\"></span>\(verdict.label)</li>"), "\(verdict) in the legend: each is in a cell")
        }
        #expect(html.contains("position: sticky"))
        #expect(html.contains("system-ui"))
    }

    @Test("each failing cell's reason: on hover, and in a row of details under its student; none for a student who lost nothing")
    func reasons() throws {
        let book = try classOfNine()
        let html = GradebookHTML.render(book)
        #expect(html.contains("title=\"1.2: data race — data race &lt;in&gt; ana\""))
        let details = html.split(separator: "\n").filter { $0.hasPrefix("<tr class=\"why\">") }
        #expect(details.count == 8, "everyone but fay, who passed everything, lost points")
        #expect(!html.contains("Why fay lost points"))
        let ana = try #require(details.first { $0.contains("Why ana lost points") })
        #expect(ana.contains("colspan=\"7\""), "the whole width: student, four exercises, total, notes")
        #expect(ana.contains("<li><b>1.2</b> data race &lt;in&gt; ana</li><li><b>1.3</b> never finished &lt;in&gt; ana</li>"))
        #expect(ana.contains("2 exercises</summary>"))
    }

    @Test("the legend names only the verdicts on the page")
    func legend() throws {
        let book = try Gradebook(exercises: ["1.1"], maxPoints: ["1.1": 10], rows: [
            Gradebook.Row(student: "a", cells: ["1.1": Cell(points: 10, verdict: .pass)]),
            Gradebook.Row(student: "b", cells: ["1.1": Cell(points: 0, verdict: .failed(.race), reason: "r")]),
        ])
        let html = GradebookHTML.render(book)
        #expect(html.contains("<span class=\"swatch v-pass\"></span>passed</li><li><span class=\"swatch v-race\"></span>data race</li></ul>"))
        #expect(!html.contains("<span class=\"swatch v-tampered\">"))
    }

    @Test("self-contained: no scripts, no links, nothing fetched")
    func selfContained() throws {
        let html = GradebookHTML.render(try classOfNine())
        for forbidden in ["<script", "<link", "@import", "url(", "http://", "https://", "<img", "<iframe", "<object"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
    }

    @Test("every student-chosen string is escaped: folder names, notes, tamper paths")
    func escaping() throws {
        let html = GradebookHTML.render(try classOfNine())
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("dev &amp; co"))
        #expect(html.contains("did not build: &quot;quote&quot; &amp; &#39;apostrophe&#39; &lt;b&gt;"))
        #expect(html.contains("<code>Tests/Chapter1LatchTests/&lt;script&gt;.swift</code>"))
        #expect(!html.contains("<b>\"") && !html.contains("'apostrophe'"))
    }

    @Test("per exercise, how many students each kind caught; the exercise that trips the most first")
    func histogram() throws {
        let html = GradebookHTML.render(try classOfNine())
        let order = ["1.3", "1.2", "1.1", "3.1"].map { id in
            html.range(of: "<span class=\"exercise\">\(id)</span>")?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "1.3, 1.2, 1.1, 3.1")
        #expect(html.contains("5 of 9 failed · 1 data race, 1 crash, 3 never finished"))
        #expect(html.contains("0 of 9 failed · no failures"))
        #expect(html.contains("<span class=\"segment v-failed-hang\"") == false)
        #expect(html.contains("<span class=\"segment v-hang\" style=\"flex: 3 1 0\" title=\"3 students: never finished\">3</span>"))
    }

    @Test("an empty gradebook still renders, saying so")
    func empty() throws {
        let html = GradebookHTML.render(try Gradebook(exercises: ["1.1"], maxPoints: ["1.1": 10], rows: []))
        #expect(html.contains("0 students"))
        #expect(html.contains("No submissions were graded."))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test("a headless Chromium renders it to a non-empty PNG",
          .enabled(if: ClassroomFixture.chromium != nil, "no chromium or chromium-browser on PATH"),
          .timeLimit(.minutes(2)))
    func screenshot() throws {
        let browser = try #require(ClassroomFixture.chromium)
        let folder = try ClassroomFixture.scratch("html")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("gradebook.html")
        let png = folder.appendingPathComponent("gradebook.png")
        try GradebookHTML.render(try classOfNine()).write(to: page, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--screenshot=\(png.path)", "--window-size=1200,800", page.absoluteString,
        ], environment: ["HOME": folder.path], timeLimit: 90)
        #expect(result.termination == .exited(0), "\(result.output)")
        let image = try Data(contentsOf: png)
        #expect(image.count > 10_000, "a blank page would be tiny")
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG signature")
        if let keep = ProcessInfo.processInfo.environment["WORKBOOK_KEEP_SCREENSHOT"], !keep.isEmpty {
            try image.write(to: URL(fileURLWithPath: keep))
        }
    }
}
