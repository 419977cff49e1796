import Foundation

/// A Swift Testing ID as the event stream names it: a suite's `Module.Suite`, a test's
/// `Module.Suite/name()/File.swift:7:6` (its last part is where the test is declared).
package struct TestID: Hashable, Sendable, CustomStringConvertible {
    package var rawValue: String

    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// Whether it names a test function, not a suite.
    package var isTest: Bool { rawValue.contains("/") }

    /// The test function's base name, `name` of `Module.Suite/name()/…`; `nil` for a suite.
    package var functionName: Substring? {
        rawValue.split(separator: "/").dropFirst().first.map { $0.prefix { $0 != "(" } }
    }

    /// The `--filter` that selects exactly this test: its ID without the place it is declared at.
    package var filter: String {
        var parts = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 2, parts.last?.contains(".swift:") == true { parts.removeLast() }
        // Like the suites' filters: no `^` (it matches nothing), and `(/|$)` so `run()` is not `run()2`.
        return NSRegularExpression.escapedPattern(for: parts.joined(separator: "/")) + "(/|$)"
    }

    package var description: String { rawValue }
}

/// An exercise's suite, `Module.Suite` (`Chapter1LatchTests.Exercise1_1Tests`): what its tests' IDs
/// begin with, and how `--filter` selects them.
package struct SuiteID: Hashable, Sendable, CustomStringConvertible {
    /// `Module.Suite`.
    package var name: String

    package init(_ chapter: Chapter, _ exercise: Exercise) {
        name = "\(chapter.testModule).\(exercise.suite)"
    }

    /// Whether `id` is a test of this suite (`Module.Suite/…`).
    package func hasTest(_ id: String) -> Bool { id.hasPrefix(name + "/") }

    /// Whether `id` is this suite, a suite nested in it, or a test of either.
    package func owns(_ id: String) -> Bool {
        id == name || id.hasPrefix(name + "/") || id.hasPrefix(name + ".")
    }

    /// The `--filter` that selects the suite's tests.
    package var filter: String { NSRegularExpression.escapedPattern(for: name) + "(/|$)" }

    package var description: String { name }
}
