/// A problem with a classroom file or option, said in plain words.
package struct ClassroomError: Error, CustomStringConvertible, Sendable, Equatable {
    package var description: String
    /// `true` when the user gave something that cannot be used (exit status 2, like any bad input),
    /// rather than the workbook failing at its work.
    package var isBadInput: Bool

    package init(_ description: String, isBadInput: Bool) {
        self.description = description
        self.isBadInput = isBadInput
    }

    /// Something the user typed or wrote (an option, a points file, a CSV) that cannot be used.
    package static func badInput(_ description: String) -> ClassroomError {
        ClassroomError(description, isBadInput: true)
    }
}
