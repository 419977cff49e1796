import Foundation
@testable import WorkbookCore

/// Recorded real outputs (event streams, TSan logs, build output) under Tests/Fixtures
/// (``Layout/fixturesFolder``), and the real workbook they were recorded from.
package enum Fixture {
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let folder = packageRoot.appendingPathComponent(Layout.fixturesFolder)

    package static let workbook: Workbook = {
        do { return try Workbook(root: packageRoot) } catch { fatalError("the workbook's manifests do not load: \(error)") }
    }()

    package static func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// A recorded run: its event stream, TSan log and output, with how it ended.
    package static func run(_ name: String, _ termination: Termination) -> RunArtifacts {
        RunArtifacts(
            events: EventStream(jsonLines: text("\(name)/events.jsonl")),
            reports: TSanReport.parse(text("\(name)/tsan.log")),
            termination: termination,
            output: text("\(name)/output.txt"))
    }

    /// Exercises by id, from the real manifests.
    package static func items(_ ids: String...) -> [ExerciseRef] { items(ids) }

    /// Exercises by id, from the real manifests, each expecting the failure its starter had when
    /// the runs in Fixtures/ were recorded (``asRecorded(_:)``).
    package static func items(_ ids: [String]) -> [ExerciseRef] {
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
    package static let kindsWhenRecorded: [String: FailureKind] = ["5.3": .hang]

    /// `item` expecting the failure its starter had when the runs in Fixtures/ were recorded.
    package static func asRecorded(_ item: ExerciseRef) -> ExerciseRef {
        var item = item
        item.exercise.expectedFailure = kindsWhenRecorded[item.exercise.id] ?? item.exercise.expectedFailure
        return item
    }
}
