import Foundation
import Testing
import WorkbookEngineTestSupport

/// Plain `swift test` prints, under a failing test or suite, every code comment written right above
/// its `@Test` or `@Suite` — those after the last blank line (swift-testing's TestingMacros,
/// `createCommentTraitExprs` and `_trimTriviaToLastDoubleNewline`). The chapter suites' comments are
/// for maintainers (what each test covers, why it is built so), so a blank line keeps each of them
/// off the learner's screen.
@Suite("The chapter suites' comments stay off a learner's screen")
struct SuiteCommentsTests {
    @Test("no comment line sits right above a @Suite or @Test of a chapter suite")
    func noCommentRightAbove() throws {
        let tests = Fixture.packageRoot.appendingPathComponent("Tests")
        let folders = try FileManager.default.contentsOfDirectory(atPath: tests.path).filter { $0.hasPrefix("Chapter") }
        #expect(folders.count == 5)
        var seen = 0
        for folder in folders {
            let directory = tests.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
                let lines = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated().dropFirst()
                where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") || line.trimmingCharacters(in: .whitespaces).hasPrefix("@Test") {
                    seen += 1
                    let above = lines[index - 1].trimmingCharacters(in: .whitespaces)
                    #expect(!above.hasPrefix("//"), "\(folder)/\(name):\(index + 1): a comment right above \(line.trimmingCharacters(in: .whitespaces).prefix(40))… is printed under every failure of it; leave a blank line between")
                }
            }
        }
        #expect(seen > 100, "the suites were read: \(seen) declarations")
    }
}
