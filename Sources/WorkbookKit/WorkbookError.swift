/// Problems the workbook reports to its user in plain words.
public enum WorkbookError: Error, CustomStringConvertible, Sendable {
    case badManifest(path: String, reason: String)
    case unknownName(String, known: [String])
    case notInWorkbook
    case toolFailed(String)

    /// `true` when the user asked for something that does not exist (exit status 2, like any bad
    /// input), rather than the workbook failing at its work.
    public var isBadInput: Bool {
        if case .unknownName = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .badManifest(path, reason):
            "The chapter manifest \(path) cannot be read: \(reason)"
        case let .unknownName(name, known):
            "There is no chapter or exercise called '\(name)'. Try one of: \(known.joined(separator: ", "))."
        case .notInWorkbook:
            "This is not inside the Dispatch Workbook (no Package.swift with an Exercises folder above the current directory)."
        case let .toolFailed(message):
            message
        }
    }
}
