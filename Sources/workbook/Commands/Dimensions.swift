import Foundation
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine
#if WORKBOOK_MAINTAINERS
import WorkbookMaintainer
#endif

extension Command {
    /// What `dimensions` takes.
    struct DimensionsFlags: FlagSet {
        let why = Flag("--why", help: "spell out each cell: its tests and corpus entries, or why the dimension does not apply")
    }

    static let dimensions: Command = Command(
        name: .dimensions,
        abstract: "for maintainers: which dimensions each exercise's suite explores",
        arguments: .any("exercise|chapter"),
        discussion: """
        Prints the exercise × dimension table the chapters' manifests declare: for each exercise, the \
        tests and near-miss entries that explore each dimension (queues, deadlines, overlap, lifetime, \
        instances, visibility, re-entrance, timed waits, the sanitizer's blind spot, every run), or why \
        it does not apply. Checks that every named test is in its suite and every entry in the corpus. \
        Exit status 0 only if every exercise asked for declares all ten, and every name is found.
        """,
        flags: DimensionsFlags.self,
        audience: .workbook,
        run: { arguments in
            #if WORKBOOK_MAINTAINERS
            let workbook = try currentWorkbook()
            let items = try workbook.select(arguments.positional)
            let declared = workbook.dimensions(of: Checker.chapters(of: items, in: workbook))
                .filter { item in items.contains { $0.exercise.id == item.exercise.id } }
            let problems = workbook.dimensionProblems(declared)
            Terminal.say(DimensionTable.render(declared, problems: problems, why: arguments[\.why],
                                               style: Terminal.style, width: Terminal.width))
            return problems.isEmpty ? 0 : 1
            #else
            try runInMaintainersBuild(.dimensions)
            #endif
        })
}
