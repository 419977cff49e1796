import Foundation

/// Problems the workbook reports to its user, as structured values; what each says is in the
/// catalog (``Says``).
package enum WorkbookError: Error, CustomStringConvertible, Sendable {
    case badManifest(path: String, reason: String)
    /// A name that means no chapter and no exercise; `known`, every chapter's and exercise's.
    case unknownName(String, known: [String])
    /// A name, where one exercise is needed, that means none; `known`, every exercise's id.
    case unknownExercise(String, known: [String])
    /// A name, where one exercise is needed, that means several (a chapter's): their ids.
    case severalExercises(String, exercises: [String])
    case notInWorkbook
    /// A program the workbook runs (swift, git, gdb) could not be started.
    case cannotStart(executable: String, reason: String)
    /// The toolchain has no Thread Sanitizer.
    case noSanitizer
    /// The build failed in code that is in no chapter: nothing can be graded.
    case buildFailedOutsideChapters(details: String)
    /// The build kept failing after everything that did not compile was left out.
    case buildKeepsFailing
    /// The learner's progress file cannot be read, or is a newer format.
    case damagedProgressFile(path: String)
    case newerProgressFile(path: String, version: Int)
    /// A starter is in neither of the places `reset` restores from.
    case starterNotKept(exercise: String, keptAt: String)
    case starterNotInGit(exercise: String, commit: String, gitSaid: String)
    /// The backup of a learner's file could not be written whole, so the file was left alone.
    case backupFailed(file: String, backup: String)
    /// A maintainers' drill could not set itself up (not a verdict on the workbook).
    case drillSetUp(String)
    /// The tool with the maintainers' commands could not be built, or its place not found; SwiftPM's output.
    case maintainersBuildFailed(output: String)
    /// A maintainers' command reached a tool built without them even after building the tool with them.
    case maintainersCommandsMissing(command: String)

    /// `true` when the user asked for something that does not exist (exit status 2, like any bad
    /// input), rather than the workbook failing at its work.
    package var isBadInput: Bool {
        switch self {
        case .unknownName, .unknownExercise, .severalExercises: true
        default: false
        }
    }

    package var description: String { Says.problem(self) }
}
