import Chapter3Semaphores
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 3.1's contract, executable: a scenario mixes what the contract allows — a UI queue that is a
// serial queue or the main queue; present(_:) called from threads, from blocks on every kind of
// queue and from the UI queue itself, several callers at once; modals dismissed inside
// screen.present(_:), in the next block on the UI queue, a little later, or held on screen while
// the others are asked for; modals that ask for another modal while they are on screen or right
// after calling their dismissAction — while others wait; a presenter let go right after the last
// request. One run records every call, every presentation and every dismissal, and the record is
// held to each clause of the header.
extension Exercise3_1Tests: ExploredCallers {
    static let exploring = "Exploring scenarios of the presenter's contract"
    static var ifItCrashed: String { syncOntoUI }
    static let returnsAtOnce = "`present(_:)` may be called from any thread, the `ui` queue included, and returns at once: it never waits for the screen to be free."
    static let call = "present(_:)"

    enum Dismiss: String, CaseIterable, Sendable {
        /// Inside screen.present(_:), before it returns.
        case duringPresent
        /// In the next block on the UI queue.
        case nextBlock
        /// In a block on the UI queue 20 ms later.
        case later
        /// Kept on screen until every caller has asked for its modals, then dismissed on the UI queue.
        case held
    }

    enum Then: String, CaseIterable, Sendable {
        case nothing
        /// Asks for one more modal from inside screen.present(_:).
        case presentsWhileShown
        /// Asks for one more modal right after calling its dismissAction, on the UI queue.
        case presentsAfterDismissing
    }

    struct Modal: Sendable, Equatable {
        var dismiss: Dismiss
        var then: Then
    }

    enum Site: Sendable, Equatable, CustomStringConvertible {
        case elsewhere(CallSite)
        /// A block on the UI queue itself.
        case ui

        var description: String {
            switch self {
            case let .elsewhere(site): "\(site)"
            case .ui: "a block on the UI queue"
            }
        }

        /// Runs `work` from here, without waiting for it; `ui` is the run's UI queue.
        func start(_ work: @escaping @Sendable () -> Void, ui: DispatchQueue) {
            switch self {
            case let .elsewhere(site): site.start(work)
            case .ui: ui.async(execute: work)
            }
        }
    }

    struct Scenario: Sendable, Equatable, CustomStringConvertible {
        /// `.serial` or `.main`: the contract's UI queue is serial.
        var ui: QueueKind
        var callers: [Caller]
        /// The test lets the presenter go once every caller has asked (no modal asks for more then).
        var releasedAfterAsking: Bool

        struct Caller: Sendable, Equatable {
            var site: Site
            var modals: [Modal]
        }

        var modals: [Modal] { callers.flatMap(\.modals) }
        /// Every modal the run must show: those asked for by the callers and by modals.
        var expected: Int { modals.count + modals.filter { $0.then != .nothing }.count }

        var description: String {
            var parts = ["the UI queue is \(ui)" + (releasedAfterAsking ? ", and the presenter is let go once everyone has asked" : "")]
            for caller in callers {
                let kinds = Dictionary(grouping: caller.modals, by: \.dismiss).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.value.count) \(Self.phrase($0.key))" }.joined(separator: ", ")
                let whileShown = caller.modals.filter { $0.then == .presentsWhileShown }.count
                let afterDismissing = caller.modals.filter { $0.then == .presentsAfterDismissing }.count
                var more: [String] = []
                if whileShown > 0 { more.append("\(whileShown) ask\(whileShown == 1 ? "s" : "") for another modal while on screen") }
                if afterDismissing > 0 { more.append("\(afterDismissing) ask\(afterDismissing == 1 ? "s" : "") for another right after calling dismissAction") }
                parts.append("\(caller.site) asks for \(caller.modals.count) modal\(caller.modals.count == 1 ? "" : "s") (\(kinds))"
                    + (more.isEmpty ? "" : "; of them, " + more.joined(separator: " and ")))
            }
            return parts.joined(separator: "; ")
        }

        static func phrase(_ dismiss: Dismiss) -> String {
            switch dismiss {
            case .duringPresent: "dismissed inside screen.present(_:)"
            case .nextBlock: "dismissed in the next block on the UI queue"
            case .later: "dismissed 20 ms later"
            case .held: "kept on screen until everyone has asked"
            }
        }
    }

    static func generate(_ random: inout Seeded) -> Scenario {
        let released = random.chance(0.2)
        let sites: [Site] = [.ui, .ui] + CallSite.allCases.map(Site.elsewhere)
        let callers = (0..<random.pick([1, 1, 2, 3])).map { _ in
            Scenario.Caller(site: random.pick(sites), modals: (0..<random.pick([1, 2, 3, 5])).map { _ in
                Modal(dismiss: random.pick(Dismiss.allCases),
                      then: released ? .nothing : random.pick([.nothing, .nothing, .presentsWhileShown, .presentsAfterDismissing]))
            })
        }
        return Scenario(ui: random.pick([.serial, .main]), callers: callers, releasedAfterAsking: released)
    }

    /// Scenarios seen first: the re-entrant calls with others waiting, on both kinds of UI queue.
    static let corners: [Scenario] = [QueueKind.serial, .main].flatMap { ui in
        [
            Scenario(ui: ui, callers: [
                .init(site: .ui, modals: [Modal(dismiss: .held, then: .presentsWhileShown), Modal(dismiss: .duringPresent, then: .nothing)]),
                .init(site: .elsewhere(.thread), modals: [Modal(dismiss: .nextBlock, then: .nothing)]),
            ], releasedAfterAsking: false),
            Scenario(ui: ui, callers: [
                .init(site: .ui, modals: [Modal(dismiss: .duringPresent, then: .presentsAfterDismissing), Modal(dismiss: .held, then: .presentsAfterDismissing)]),
                .init(site: .elsewhere(.globalQueue), modals: [Modal(dismiss: .duringPresent, then: .nothing), Modal(dismiss: .later, then: .nothing)]),
            ], releasedAfterAsking: false),
            Scenario(ui: ui, callers: [
                .init(site: .elsewhere(.concurrentQueue), modals: [Modal(dismiss: .held, then: .nothing), Modal(dismiss: .duringPresent, then: .nothing), Modal(dismiss: .nextBlock, then: .nothing)]),
            ], releasedAfterAsking: true),
        ]
    }

    static func shrink(_ scenario: Scenario) -> [Scenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        for index in scenario.callers.indices { smaller.with { $0.callers.remove(at: index) } }
        smaller.with { $0.releasedAfterAsking = false }
        smaller.with { $0.ui = .serial }
        for caller in scenario.callers.indices {
            for modal in scenario.callers[caller].modals.indices.reversed() where scenario.callers[caller].modals.count > 1 {
                smaller.with { $0.callers[caller].modals.remove(at: modal) }
            }
            smaller.with { $0.callers[caller].site = .elsewhere(.thread) }
            for modal in scenario.callers[caller].modals.indices {
                smaller.with { $0.callers[caller].modals[modal].then = .nothing }
                smaller.with { $0.callers[caller].modals[modal].dismiss = .nextBlock }
            }
        }
        return smaller.candidates
    }

    /// A modal of an explored run: its number, and the `dismissAction` it was given.
    final class Numbered: ModalPresentable, @unchecked Sendable {
        let number: Int
        let spec: Modal
        private let lock = NSLock()
        private var action: (() -> Void)?

        init(_ number: Int, _ spec: Modal) {
            self.number = number
            self.spec = spec
        }

        var dismissAction: (() -> Void)? {
            get { lock.withLock { action } }
            set { lock.withLock { action = newValue } }
        }
    }

    /// What one run saw, under one lock: a clock of events, when each call to present(_:) began and
    /// returned, when each modal went on screen and off it.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var clock = 0
        private(set) var began: [Int: Int] = [:]
        private(set) var returned: [Int: Int] = [:]
        private(set) var shown: [(modal: Int, at: Int)] = []
        private(set) var onScreen = 0
        private(set) var mostOnScreen = 0
        private(set) var dismissed = 0
        private(set) var problems: [Violation] = []
        private(set) var slowest = 0.0

        func locked<T>(_ body: (Record) -> T) -> T { lock.withLock { body(self) } }

        func begin(_ modal: Int) { lock.withLock { clock += 1; began[modal] = clock } }
        func end(_ modal: Int, took: Double) {
            lock.withLock { clock += 1; returned[modal] = clock; slowest = max(slowest, took) }
        }
        func show(_ modal: Int) {
            lock.withLock {
                clock += 1
                shown.append((modal, clock))
                onScreen += 1
                mostOnScreen = max(mostOnScreen, onScreen)
            }
        }
        func takeOff() { lock.withLock { onScreen -= 1; dismissed += 1 } }
        func problem(_ violation: Violation) { lock.withLock { problems.append(violation) } }
        private var numbers = 0
        /// The next modal's number.
        func nextNumber() -> Int { lock.withLock { defer { numbers += 1 }; return numbers } }
    }

    /// The screen of an explored run: records, dismisses each modal its own way, asks for more.
    final class ExploredScreen: ModalScreen, @unchecked Sendable {
        let ui: ProbedQueue
        let record: Record
        let insidePresent: ThreadSet
        let release: Gate
        let ask: @Sendable (Modal) -> Void

        init(ui: ProbedQueue, record: Record, insidePresent: ThreadSet, release: Gate, ask: @escaping @Sendable (Modal) -> Void) {
            self.ui = ui
            self.record = record
            self.insidePresent = insidePresent
            self.release = release
            self.ask = ask
        }

        func present(_ presented: ModalPresentable) {
            let modal = presented as! Numbered
            if ui.isCurrent != true {
                record.problem(Violation(clause: "`screen.present(_:)` is called on the `ui` queue, and only there.",
                                         observed: "screen.present(_:) was called off the UI queue (\(ui.kind))."))
            }
            if insidePresent.contains(pthread_self()) {
                record.problem(Violation(clause: "`screen.present(_:)` is called later, in a block of its own, never during the call to `present(_:)`.",
                                         observed: "screen.present(_:) ran inside a call to present(_:), on the caller's thread."))
            }
            guard let action = modal.dismissAction.map(Unchecked.init) else {
                record.problem(Violation(clause: "`dismissAction` is set before the modal is shown.",
                                         observed: "a modal reached screen.present(_:) with no dismissAction."))
                record.show(modal.number)
                return
            }
            record.show(modal.number)
            if modal.spec.then == .presentsWhileShown { ask(Modal(dismiss: .nextBlock, then: .nothing)) }
            let ui = ui.queue, record = record, ask = ask, then = modal.spec.then
            let dismiss: @Sendable () -> Void = {
                record.takeOff()
                action.value()
                if then == .presentsAfterDismissing { ask(Modal(dismiss: .nextBlock, then: .nothing)) }
            }
            switch modal.spec.dismiss {
            case .duringPresent: dismiss()
            case .nextBlock: ui.async(execute: dismiss)
            case .later: ui.asyncAfter(deadline: .now() + 0.02, execute: dismiss)
            case .held:
                let release = release
                startThread { _ = release.passes(within: 1.5); ui.async(execute: dismiss) }
            }
        }
    }

    /// One run of `scenario`, held to the contract.
    static func run(_ scenario: Scenario) -> Violation? {
        let ui = scenario.ui.make(label: "workbook.ui")
        let record = Record()
        let insidePresent = ThreadSet()
        let release = Gate()
        let presenter = LastReference<ModalPresenter>()

        @Sendable func present(_ spec: Modal) {
            let number = record.nextNumber()
            let modal = Numbered(number, spec)
            guard let target = presenter.value else { return }
            let me = pthread_self()
            insidePresent.insert(me)
            record.begin(number)
            let start = DispatchTime.now().uptimeNanoseconds
            target.present(modal)
            record.end(number, took: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            insidePresent.remove(me)
        }

        let screen = ExploredScreen(ui: ui, record: record, insidePresent: insidePresent, release: release, ask: { present($0) })
        if let hung = make("ModalPresenter(screen:ui:)", into: presenter, letGo: scenario.releasedAfterAsking, { ModalPresenter(screen: screen, ui: ui.queue) }) {
            return hung
        }

        if let stuck = callersReturn(within: 1, scenario.callers.map { caller in
            ExploredCaller(start: { caller.site.start($0, ui: ui.queue) }, calls: { for spec in caller.modals { present(spec) } })
        }) { return stuck }
        if scenario.releasedAfterAsking { presenter.letGo() }
        release.open()

        let expected = scenario.expected
        // Until every modal has been shown and dismissed, or a clause is already broken (and a
        // moment more, for a modal shown twice, or one more than asked for).
        settle { record.locked { ($0.dismissed < expected || $0.shown.count < expected) && $0.problems.isEmpty && $0.mostOnScreen <= 1 } }

        return record.locked { seen -> Violation? in
            if let slow = tookTooLong(seen.slowest) { return slow }
            if seen.mostOnScreen > 1 {
                return Violation(clause: "One at a time: the next modal goes on screen only after the one before it has called its `dismissAction`, however long that takes.",
                                 observed: "\(seen.mostOnScreen) modals were on screen at once.")
            }
            if let problem = seen.problems.first { return problem }
            let counts = Dictionary(grouping: seen.shown, by: \.modal).mapValues(\.count)
            let twice = counts.filter { $0.value > 1 }.count
            if seen.shown.count != expected || twice > 0 {
                return Violation(clause: "Modals are shown each exactly once.",
                                 observed: "of \(expected) modals asked for, \(counts.count) were shown within 2.5 s"
                                    + (twice > 0 ? ", \(twice) of them more than once" : "") + ".",
                                 timedOut: twice == 0 && seen.shown.count < expected)
            }
            let shownAt = Dictionary(uniqueKeysWithValues: seen.shown.map { ($0.modal, $0.at) })
            if servedOutOfOrder(began: seen.began, returned: seen.returned, servedAt: shownAt) != nil {
                return Violation(clause: "First come, first served: modals are shown in the order `present(_:)` was called.",
                                 observed: "a modal asked for after another one's present(_:) call had returned was shown before it.")
            }
            return nil
        }
    }

    @Test("explored: a serial or the main UI queue, callers on threads and every kind of queue (the UI queue too), modals dismissed every way or held while others ask, modals that ask for more while others wait, a presenter let go")
    func explored() async {
        await Self.explore()
    }
}
