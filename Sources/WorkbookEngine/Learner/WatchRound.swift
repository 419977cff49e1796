import Foundation
import WorkbookCore

/// What `workbook watch` checks after some files were saved: the decisions of the watch loop, apart
/// from its clock and its printing, so that they are tested without a terminal.
package struct WatchRound: Sendable, Equatable {
    /// The exercises whose files were saved, shown in full.
    package var saved: [String]
    /// Every exercise to check: the saved ones' chapters, whole (a saved file can break or fix its
    /// neighbours: 4.2 extends 4.1's type).
    var check: [String]

    /// The round `changedPaths` (absolute, as ``Layout/canonical(_:)`` spells them) call for, or `nil` when none of them is an
    /// exercise's file (a lesson, a backup, a file outside the exercises).
    package init?(changedPaths: [String], in workbook: Workbook) {
        let saved = workbook.allExercises.filter { item in
            changedPaths.contains(Layout.canonical(workbook.exerciseFile(item.chapter, item.exercise)))
        }
        guard !saved.isEmpty else { return nil }
        self.saved = saved.map(\.exercise.id)
        check = workbook.allExercises.filter { item in saved.contains { $0.chapter.name == item.chapter.name } }
            .map(\.exercise.id)
    }

    /// The exercises of ``check``, with their chapters, in the workbook's order.
    package func items(in workbook: Workbook) -> [ExerciseRef] {
        workbook.allExercises.filter { check.contains($0.exercise.id) }
    }
}
