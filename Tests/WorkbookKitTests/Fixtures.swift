import Foundation
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
@testable import WorkbookMaintainer

/// Recorded real outputs (event streams, TSan logs, build output) under Fixtures/, and the real
/// workbook they were recorded from.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let workbook: Workbook = {
        do { return try Workbook(root: packageRoot) } catch { fatalError("the workbook's manifests do not load: \(error)") }
    }()

    static func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// A recorded run: its event stream, TSan log and output, with how it ended.
    static func run(_ name: String, _ termination: Termination) -> RunArtifacts {
        RunArtifacts(
            events: EventStream(jsonLines: text("\(name)/events.jsonl")),
            reports: TSanReport.parse(text("\(name)/tsan.log")),
            termination: termination,
            output: text("\(name)/output.txt"))
    }

    /// Exercises by id, from the real manifests.
    static func items(_ ids: String...) -> [ExerciseRef] { items(ids) }

    /// Exercises by id, from the real manifests, each expecting the failure its starter had when
    /// the runs in Fixtures/ were recorded (``asRecorded(_:)``).
    static func items(_ ids: [String]) -> [ExerciseRef] {
        ids.map { id in
            guard let item = workbook.allExercises.first(where: { $0.exercise.id == id }) else {
                fatalError("no exercise \(id) in the manifests")
            }
            return asRecorded(item)
        }
    }

    /// The kinds of failure starters had when the recorded runs were made, where a starter has
    /// changed since: 5.3's starter then had no empty case and ran out of time; now it is 5.2's
    /// repaired counter and completes early (issue 29). The recorded runs stay what they were.
    static let kindsWhenRecorded: [String: FailureKind] = ["5.3": .hang]

    /// `item` expecting the failure its starter had when the runs in Fixtures/ were recorded.
    static func asRecorded(_ item: ExerciseRef) -> ExerciseRef {
        var item = item
        item.exercise.expectedFailure = kindsWhenRecorded[item.exercise.id] ?? item.exercise.expectedFailure
        return item
    }
}
