import Foundation
import Testing

/// Fails the test that stands in for an exercise plain `swift test` left out of the build, and says why.
///
/// Package.swift leaves out an exercise whose starter does not compile on purpose while its file is
/// still that starter, so that the rest of the workbook builds. SwiftPM decides that when it reads
/// Package.swift, and it reads it again only when Package.swift or the environment changes — not when
/// a source file does. So the file may have changed since; this says which case it is.
package func recordLeftOut(
    exercise: String, chapter: String, file: String,
    packageFile: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let root = packageFile.range(of: "/Tests/").map { String(packageFile[..<$0.lowerBound]) } ?? "."
    let path = "Exercises/\(chapter)/\(file)"
    // `WORKBOOK_ONLY` and `--filter` take the short name: "Chapter4SerialQueues" → "Chapter4".
    let short = "Chapter" + chapter.dropFirst("Chapter".count).prefix(while: \.isNumber)
    let mine = FileManager.default.contents(atPath: "\(root)/\(path)")
    let starter = FileManager.default.contents(atPath: "\(root)/Tests/Starters/\(chapter)/\(file)")
    let sentence = mine == starter
        ? """
          \(exercise) was left out of this build: \(path) is still the starter, which does not compile \
          on purpose — making it compile, and right, is the exercise. Plain `swift test` leaves it out so \
          that the other exercises build. `swift run workbook check \(exercise)` shows the compiler's error \
          at your line; once you have edited the file, run `WORKBOOK_ONLY=\(short) swift test --filter \
          \(short)` to test it.
          """
        : """
          \(exercise) was left out of this build although \(path) is no longer the starter: SwiftPM \
          decided what to build when it last read Package.swift, and it reads Package.swift again only when \
          Package.swift or the environment changes, not when a source file does. Run `WORKBOOK_ONLY=\(short) \
          swift test --filter \(short)` (a changed setting makes SwiftPM read Package.swift again), or \
          `swift run workbook check \(exercise)`.
          """
    recordIssue(Comment(rawValue: sentence), sourceLocation: sourceLocation)
}
