import Foundation

/// How the learner starts the tool, so that every command a message suggests can be typed as it is
/// printed: `swift run workbook check 1.2` when SwiftPM started it (the README's way, with nothing to
/// install), or the command as the learner typed it (`workbook`, `./workbook`) when it was installed.
/// Decided once per process, here; every suggestion is written through ``Says/command(_:)``.
package struct CommandForm: Sendable, Equatable {
    /// What comes before a command's name: `swift run workbook`, `workbook`, `./workbook`.
    package var prefix: String

    /// How this process was started, from its `argv[0]`.
    package static let current = CommandForm(startedAs: CommandLine.arguments.first ?? "")

    /// The form for a process started as `argv0`. `swift run` starts the executable by its full path
    /// inside the package's `.build` folder (`.build`, or any `--scratch-path` named `.build…`); a
    /// shell passes on what was typed. A process that is not the `workbook` tool (a test runner
    /// using the engine) says `workbook`.
    package init(startedAs argv0: String) {
        let components = argv0.split(separator: "/")
        if components.dropLast().contains(where: { $0.hasPrefix(".build") }) {
            prefix = "swift run workbook"
        } else if components.last == "workbook" {
            prefix = argv0
        } else {
            prefix = "workbook"
        }
    }

    /// `arguments` as a command line to type: `swift run workbook hint 1.2`.
    package func line(_ arguments: String) -> String { "\(prefix) \(arguments)" }

}

extension Says {
    /// A command to run, as the learner starts the tool, in backticks: `` `swift run workbook hint 1.2` ``.
    package static func command(_ arguments: String) -> String { "`\(CommandForm.current.line(arguments))`" }
}
