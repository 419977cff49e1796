import WorkbookKit

/// The tool's own sentences that more than one command says.
enum Messages {
    static func frozenFilesChanged(_ files: [String]) -> String {
        "Warning: files outside \(SourceSet.exercises.folder)/ changed since the workbook was set up, so these verdicts may not mean what they say: "
            + files.prefix(5).joined(separator: ", ") + (files.count > 5 ? ", …" : "")
            + ". Only the files in \(SourceSet.exercises.folder)/ are yours to edit."
    }

    static func undone(_ ids: [String]) -> String {
        let list = ids.joined(separator: ", ")
        return ids.count == 1
            ? "\(list) passed before and fails now, so it is no longer counted as done."
            : "\(list) passed before and fail now, so they are no longer counted as done."
    }
}
