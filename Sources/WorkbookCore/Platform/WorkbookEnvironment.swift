import Foundation

/// The environment variables the `workbook` tool itself reads, declared once with what each means,
/// and their values as read once, when the tool starts (``WorkbookEnvironment/process`` in
/// WorkbookEngine). Pure: it only holds values. The build contract's variables are
/// ``BuildSettings``'; Package.swift and the chapters' test support read their own.
package struct WorkbookEnvironment: Sendable, Equatable {
    /// `linux` or `darwin`: the platform whose paths, launches and sentences apply for a whole run
    /// (``Platform/variable``).
    package var platform: Platform.Kind?
    /// `WORKBOOK_LAUNCH`: how test processes start, a `TestLaunch.Method`'s name (WorkbookEngine);
    /// `swift-test` on Linux starts them Darwin's way instead of running the test binary.
    package var launch: String?
    /// `WORKBOOK_CHECK_SCRATCH`: the folder `check` builds in instead of the package's own (the
    /// benchmark uses it for cold builds).
    package var checkScratch: URL?
    /// `WORKBOOK_KEEP_ARTIFACTS`: a folder where each test run's event stream, TSan reports and output
    /// are kept.
    package var keepArtifacts: URL?
    /// `WORKBOOK_ROOT`: the workbook to work on, instead of the package around the current directory.
    package var root: URL?
    /// `NO_COLOR` set and not empty: no colour, even on a terminal.
    package var noColor: Bool
    /// `COLUMNS`: the terminal's width when it cannot be asked.
    package var columns: Int?
    /// `PAGER`: what shows a lesson on a terminal (`less` when unset or empty).
    package var pager: String?
    /// `PATH`: where the tools the engine runs by name are looked for.
    package var path: String
    /// `WORKBOOK_RELAUNCHED`: this process was started by the learner's build of the tool in its
    /// place, to run a maintainers' command (``MaintainersBuild`` in WorkbookEngine); if it cannot
    /// run it either, it stops instead of building again.
    package var relaunched: Bool

    /// The names, each once.
    package enum Name {
        package static let platform = Platform.variable
        package static let launch = "WORKBOOK_LAUNCH"
        package static let checkScratch = "WORKBOOK_CHECK_SCRATCH"
        package static let keepArtifacts = "WORKBOOK_KEEP_ARTIFACTS"
        package static let root = "WORKBOOK_ROOT"
        package static let noColor = "NO_COLOR"
        package static let columns = "COLUMNS"
        package static let pager = "PAGER"
        package static let path = "PATH"
        package static let relaunched = "WORKBOOK_RELAUNCHED"
    }

    /// The values in `variables` (a process's environment); an empty value counts as unset.
    package init(_ variables: [String: String]) {
        func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        platform = value(Name.platform).flatMap(Platform.Kind.init(rawValue:))
        launch = value(Name.launch)
        checkScratch = value(Name.checkScratch).map { URL(fileURLWithPath: $0) }
        keepArtifacts = value(Name.keepArtifacts).map { URL(fileURLWithPath: $0) }
        root = variables[Name.root].map { URL(fileURLWithPath: $0) }
        noColor = value(Name.noColor) != nil
        columns = variables[Name.columns].flatMap(Int.init)
        pager = value(Name.pager)
        path = variables[Name.path] ?? "/usr/bin:/bin"
        relaunched = value(Name.relaunched) != nil
    }
}
