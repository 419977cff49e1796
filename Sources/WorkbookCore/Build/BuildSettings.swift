/// The build contract between the engine and Package.swift, declared once: the environment variables
/// Package.swift reads to decide what the package graph holds, and what each means. The engine sets
/// them through ``TestLaunch/buildEnvironment`` (every build and every `swift test` over that build
/// must see the same values, or SwiftPM plans another graph); plain `swift build` and `swift test`
/// leave them unset. A unit test holds Package.swift to exactly these names.
package enum BuildSettings {
    /// `solutions`: the chapter modules are built from `Solutions/` instead of `Exercises/`.
    package static let sources = "WORKBOOK_SOURCES"
    /// A comma-separated list of chapters (`Chapter1` or the folder's name) to build, and no other;
    /// `none` builds the engine alone. Empty or unset: every chapter. The grader uses it to keep a
    /// chapter that does not compile from stopping the others.
    package static let only = "WORKBOOK_ONLY"
    /// A comma-separated list of `<target>/<file>` left out of their targets, e.g.
    /// `Chapter4SerialQueues/AuthToken.swift,Chapter4SerialQueuesTests/Exercise4_5Tests.swift`: an
    /// exercise that does not compile goes with its suite, and the rest of its chapter is built.
    /// Unset (not empty): Package.swift itself leaves out an untouched starter that is meant not to
    /// compile, and builds its suite's stand-in instead.
    package static let exclude = "WORKBOOK_EXCLUDE"

    /// `none`: the engine (its layers, WorkbookCore to WorkbookMaintainer, the `workbook` tool and their tests) is left out of the
    /// graph. Grading builds need only the chapters, their suites and the test support, so a learner's
    /// first check compiles those alone; the self-test keeps the engine in the build that runs its
    /// unit tests (the variable set, empty). Unset — a learner's `swift run workbook` or plain `swift
    /// test --filter ChapterN` — the tool is built without the maintainers' layer (WorkbookMaintainer)
    /// and not the engine's own tests; any other value builds the tool with that layer, compiled with
    /// ``maintainersCondition``, and `tests` (or empty) brings in the engine's tests too.
    package static let engine = "WORKBOOK_ENGINE"

    /// `executable`: the chapters' suites are built as plain modules and linked into an executable of
    /// their own, `WorkbookSuites` (`Tests/WorkbookSuites/main.swift` hands it to Swift Testing), not
    /// into SwiftPM's test product. On Linux a test product costs every build SwiftPM's test discovery
    /// — a module generated from the index store, and the runner that calls it — which Swift Testing,
    /// finding its tests in the binary as it starts, does not use. The grader sets it whenever it
    /// starts the tests itself (``Platform/launchMethod`` `binary`); on macOS Package.swift ignores
    /// it, as the suites there stay a bundle `swift test` loads.
    package static let suites = "WORKBOOK_SUITES"

    /// Every variable of the contract.
    static let all = [sources, only, exclude, engine, suites]

    /// `WORKBOOK_ONLY`'s value for a build of the engine alone, without any chapter, and
    /// `WORKBOOK_ENGINE`'s for a build of the chapters alone.
    package static let none = "none"
    /// `WORKBOOK_ENGINE`'s value for the tool with the maintainers' commands (`selftest`,
    /// `dimensions`, `new`) and without the engine's tests: what those commands build when the
    /// learner's build of the tool is asked for them (``MaintainersBuild`` in WorkbookEngine).
    package static let maintainers = "maintainers"
    /// The compilation condition of the tool's target when it is built with the maintainers' layer:
    /// its maintainers' commands run there, and elsewhere build that tool and run in it.
    package static let maintainersCondition = "WORKBOOK_MAINTAINERS"
    /// `WORKBOOK_SUITES`'s value for the suites linked into an executable of their own.
    package static let executable = "executable"
}
