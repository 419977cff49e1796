import Chapter3Semaphores
import Dispatch
import Foundation
import Synchronization
import Testing
import WorkbookTestSupport

// Fakes for Chapter 3. Each one keeps its books under an `NSCondition` (a lock TSan understands),
// so that a report always points at the learner's code, and each one lets the test wait for "the
// n-th thing has happened" with a bound, without consuming anything.
//
// Their answers come from private *serial* queues, not from a global queue: on this 2-core machine
// (Linux x86-64, Swift 6.3.1), while test threads and learner queues sat blocked, a block sent to a
// global queue was measured waiting up to a second for a worker — libdispatch's pool on Linux grows
// when workers block, but slowly.
//
// One rule shapes them all: a semaphore must not be released while fewer places are free than it
// was created with — libdispatch traps (on Apple platforms the crash report says "Semaphore object
// deallocated while in use"; on Linux x86-64 with a bare SIGILL in `_dispatch_semaphore_dispose`). So every
// piece of held work is finished before a test ends (`finishAll()` / `answerAll()` in a `defer`),
// and whatever the fakes call back is called on their own queues, never on the test's thread,
// so that learner code that blocks cannot block the test.

/// A bookkeeping lock with a bounded "wait until" on top.
class Books: @unchecked Sendable {
    let condition = NSCondition()

    /// Runs `body` under the lock and wakes everyone waiting in ``waitUntil(seconds:_:)``.
    func update<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        return body()
    }

    /// Reads under the lock.
    func read<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Waits up to `seconds` for `isTrue` to hold (cut short after a time-out of the suite:
    /// ``AfterATimeOut``); returns whether it does.
    func waitUntil(seconds: Double, _ isTrue: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: AfterATimeOut.bound(seconds))
        condition.lock()
        defer { condition.unlock() }
        while !isTrue() {
            if !condition.wait(until: deadline) { return isTrue() }
        }
        return true
    }
}

// MARK: - 3.1

/// A modal that remembers the `dismissAction` it was given and can be dismissed by the test.
final class FakeModal: ModalPresentable, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var action: (() -> Void)?

    init(_ name: String) { self.name = name }

    var dismissAction: (() -> Void)? {
        get { lock.lock(); defer { lock.unlock() }; return action }
        set { lock.lock(); defer { lock.unlock() }; action = newValue }
    }
}

/// When a ``FakeScreen`` dismisses what it shows.
enum DismissStyle: String, CaseIterable, CustomTestStringConvertible {
    /// Only when the test says so.
    case byTest
    /// Inside `present`, before it returns — a modal the user closes at once.
    case immediately
    /// Later, in a separate block on the UI queue.
    case soon

    var testDescription: String { rawValue }
}

/// A screen that records what it shows, on which queue, and how many modals were up at once.
final class FakeScreen: Books, ModalScreen, @unchecked Sendable {
    private let ui: TestQueue
    private var style: DismissStyle
    private var shown: [String] = []
    private var onScreen: [FakeModal] = []
    private var peak = 0
    private var offQueue: [String] = []
    private var withoutAction: [String] = []
    private var showHook: ((FakeModal) -> Void)?
    private var dismissHook: ((FakeModal) -> Void)?

    init(ui: TestQueue, dismiss style: DismissStyle = .byTest) {
        self.ui = ui
        self.style = style
    }

    func present(_ modal: ModalPresentable) {
        let modal = modal as! FakeModal
        let onUI = ui.isCurrent
        let (style, hook) = update { () -> (DismissStyle, ((FakeModal) -> Void)?) in
            shown.append(modal.name)
            if !onUI { offQueue.append(modal.name) }
            onScreen.append(modal)
            peak = max(peak, onScreen.count)
            return (self.style, showHook)
        }
        hook?(modal)
        switch style {
        case .byTest: break
        case .immediately: if takeOff(modal) { callDismissAction(of: modal) }
        case .soon: dismiss(modal)
        }
    }

    /// Takes `modal` off the screen and calls its `dismissAction` in a new block on the UI queue,
    /// as a tap on "Close" would. Does nothing if `modal` is not on screen.
    func dismiss(_ modal: FakeModal) {
        guard takeOff(modal) else { return }
        let modal = Unchecked(modal)
        ui.queue.async { [self] in callDismissAction(of: modal.value) }
    }

    /// Dismisses what is on screen now and whatever is shown from now on. Call it in a `defer`,
    /// so that no presenter is left waiting and no semaphore is released while in use.
    func dismissEverythingFromNowOn() {
        let up = update { () -> [FakeModal] in
            style = .immediately
            return onScreen
        }
        for modal in up { dismiss(modal) }
    }

    private func takeOff(_ modal: FakeModal) -> Bool {
        update { () -> Bool in
            guard let index = onScreen.firstIndex(where: { $0 === modal }) else { return false }
            onScreen.remove(at: index)
            return true
        }
    }

    private func callDismissAction(of modal: FakeModal) {
        guard let action = modal.dismissAction else {
            update { withoutAction.append(modal.name) }
            return
        }
        action()
        read { dismissHook }?(modal)
    }

    /// Runs `hook` inside `present`, on the thread the screen was called on, each time a modal is
    /// shown (before it is dismissed in this screen's style).
    func whenShown(_ hook: @escaping (FakeModal) -> Void) { update { showHook = hook } }

    /// Runs `hook` right after a modal's `dismissAction` has returned, on the same thread.
    func whenDismissed(_ hook: @escaping (FakeModal) -> Void) { update { dismissHook = hook } }

    /// Waits up to `seconds` until `count` modals have been shown in all.
    func waitUntilShown(_ count: Int, seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { shown.count >= count }
    }

    /// The names of the modals shown so far, in order.
    var shownNames: [String] { read { shown } }
    /// The most modals that were on screen at the same moment.
    var mostAtOnce: Int { read { peak } }
    /// Modals presented somewhere other than the UI queue.
    var shownOffTheUIQueue: [String] { read { offQueue } }
    /// Modals dismissed while they had no `dismissAction`.
    var dismissedWithoutAction: [String] { read { withoutAction } }
}

extension FakeScreen {
    /// A screen on a fresh UI queue of the app's, with that queue.
    static func onAUIQueue(dismiss style: DismissStyle = .byTest) -> (ui: TestQueue, screen: FakeScreen) {
        let ui = TestQueue(label: "workbook.ui")
        return (ui, FakeScreen(ui: ui, dismiss: style))
    }

    /// For an exit test's child: waits until `count` modals have been shown, then dismisses `modal`;
    /// the child's time-out sentence `late` when they were not shown within 2 s.
    func dismiss(_ modal: FakeModal, onceShown count: Int, else late: String) -> String? {
        guard waitUntilShown(count) else { return childTimedOut(late) }
        dismiss(modal)
        return nil
    }

    /// What an exit test's child says when this screen did not show `expected`, in that order, one at
    /// a time, on the UI queue; `nil` when it did.
    func problem(showing expected: [String]) -> String? {
        if shownNames != expected { return "modals were shown in the order \(shownNames); expected [\(expected.joined(separator: ", "))]" }
        if mostAtOnce != 1 { return "\(mostAtOnce) modals were on screen at the same time; there must never be more than one" }
        if !shownOffTheUIQueue.isEmpty { return "modals \(shownOffTheUIQueue) were shown off the UI queue; call the screen only on `ui`" }
        return nil
    }
}

/// Runs `body` with a presenter that shows its modals on a fresh ``FakeScreen`` (dismissing in
/// `style`), on the app's UI queue; the presenter is kept for good, and the screen dismisses
/// everything once `body` returns, so that no presenter is left waiting.
func withPresenter<Result>(
    dismiss style: DismissStyle = .byTest,
    _ body: (_ ui: TestQueue, _ screen: FakeScreen, _ presenter: Unchecked<ModalPresenter>) -> Result
) -> Result {
    let (ui, screen) = FakeScreen.onAUIQueue(dismiss: style)
    defer { screen.dismissEverythingFromNowOn() }
    return body(ui, screen, Unchecked(keptForever(ModalPresenter(screen: screen, ui: ui.queue))))
}

extension TestQueue {
    /// Whether a block sent to this queue now runs within 2 s: nothing keeps the queue busy.
    var runsABlockSoon: Bool {
        let ran = Signal()
        queue.async { ran.fire() }
        return ran.happens(within: 2)
    }
}

// MARK: - 3.2 and 3.3: work that finishes in a style

/// How a ``FakeAudioAPI`` answers, and how a ``FakeJobs`` job calls `done`.
enum AnswerStyle: String, CaseIterable, CustomTestStringConvertible {
    /// Before `fetchList` returns (before the job returns), on the calling thread.
    case synchronous
    /// Soon, from another thread.
    case later
    /// Only when the test says so (``HeldWork/finishOldest()``), from another thread.
    case held

    var testDescription: String { rawValue }
}

/// The books of a fake whose pieces of work — a server's requests, a limiter's jobs — start, stay
/// running a while, and finish in an ``AnswerStyle``: how many have started, how many are running
/// and the most at once, and the finishes held until the test lets them go. A finish that is not
/// synchronous runs on the fake's `queue`, a serial queue of its own or one the test gives.
class HeldWork: Books, @unchecked Sendable {
    private var style: AnswerStyle
    private let queue: DispatchQueue
    private var starts = 0
    private var running = 0
    private var peak = 0
    private var waiting: [@Sendable () -> Void] = []

    init(_ style: AnswerStyle, finishingOn queue: DispatchQueue) {
        self.style = style
        self.queue = queue
    }

    /// Starts a piece of work and finishes it in this fake's style. Counting it as started and
    /// running, `record`, and parking its finish if this fake holds, happen under one lock, so that
    /// a test that sees "the n-th has started" always finds it recorded and parked. `finish` gets the
    /// piece's number, counted from 1; the piece no longer counts as running when `finish` runs, which
    /// may start the next one.
    func start(recording record: () -> Void = {}, finish: @escaping @Sendable (_ number: Int) -> Void) {
        let (finishing, style) = update { () -> (@Sendable () -> Void, AnswerStyle) in
            starts += 1
            running += 1
            peak = max(peak, running)
            record()
            let number = starts
            let finishing: @Sendable () -> Void = { [self] in
                update { running -= 1 }
                finish(number)
            }
            if self.style == .held { waiting.append(finishing) }
            return (finishing, self.style)
        }
        switch style {
        case .synchronous: finishing()
        case .later: queue.async(execute: finishing)
        case .held: break  // parked above, until the test finishes it
        }
    }

    /// Finishes the piece that started first among those still held, from another thread. Returns
    /// `false` if none was held.
    @discardableResult
    func finishOldest() -> Bool {
        guard let finishing = update({ waiting.isEmpty ? nil : waiting.removeFirst() }) else { return false }
        queue.async(execute: finishing)
        return true
    }

    /// Finishes every piece held so far, from another thread; later ones are still held.
    func finishHeld() { finishHeld(fromNowOn: false) }

    /// Finishes every held piece, and every later one at once. Call it in a `defer`.
    func finishAll() { finishHeld(fromNowOn: true) }

    private func finishHeld(fromNowOn: Bool) {
        let all = update { () -> [@Sendable () -> Void] in
            if fromNowOn { style = .later }
            defer { waiting = [] }
            return waiting
        }
        for finishing in all { queue.async(execute: finishing) }
    }

    /// Waits up to `seconds` until `count` pieces have started in all.
    func waitUntilStarted(_ count: Int, seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { starts >= count }
    }

    /// Waits up to `seconds` until every started piece has finished and `count` have started.
    func waitUntilFinished(_ count: Int, seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { starts >= count && running == 0 }
    }

    /// Waits up to `seconds` until exactly `count` pieces are between their start and their finish.
    func waitUntilRunning(_ count: Int, seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { running == count }
    }

    /// How many pieces have started.
    var startedCount: Int { read { starts } }
    /// The most pieces that were between their start and their finish at the same moment.
    var mostAtOnce: Int { read { peak } }
}

// MARK: - 3.2

/// A server whose n-th request answers `[Podcast(title: "Episode n")]`, and which counts how many
/// requests were in flight at once.
final class FakeAudioAPI: HeldWork, AudioAPI, @unchecked Sendable {
    /// Later answers are delivered on the fake's own network queue, unless the test gives one (the
    /// caller's "main" queue, as an API that answers on the main queue does).
    init(answers style: AnswerStyle, deliveredOn queue: DispatchQueue? = nil) {
        super.init(style, finishingOn: queue ?? DispatchQueue(label: "workbook.fake-network"))
    }

    func fetchList(_ completion: @escaping ([Podcast]) -> Void) {
        let completion = Unchecked(completion)
        // The request is over before its completion runs, which may start the next one.
        start { number in completion.value([Podcast(title: "Episode \(number)")]) }
    }

    /// Answers the oldest held request, from another thread. Returns `false` if none was held.
    @discardableResult
    func answerOldest() -> Bool { finishOldest() }

    /// Answers every held request, and every later one at once. Call it in a `defer`.
    func answerAll() { finishAll() }

    /// How many requests reached the server.
    var requests: Int { startedCount }
    /// The most requests that were in flight at the same moment.
    var mostInFlight: Int { mostAtOnce }
}

// MARK: - 3.3

/// Jobs for a ``DownloadLimiter`` that record when they start and how many run at once.
final class FakeJobs: HeldWork, @unchecked Sendable {
    private var startOrder: [Int] = []
    private var onCaller: [Int] = []

    init(finish style: AnswerStyle) {
        super.init(style, finishingOn: DispatchQueue(label: "workbook.fake-downloads"))
    }

    /// A job named `id`. It finishes (calls `done`) in this fake's style.
    func job(_ id: Int) -> (@escaping () -> Void) -> Void {
        { [self] done in
            let done = Unchecked(done)
            let onCallersThread = CallerThread.isCurrent
            start(recording: {
                startOrder.append(id)
                if onCallersThread { onCaller.append(id) }
            }, finish: { _ in done.value() })
        }
    }

    /// Finishes the oldest held job (``HeldWork/finishOldest()``) and waits up to 2 s until `count`
    /// jobs have started in all; records `late` as a time-out if they have not.
    func finishOldest(thenStarted count: Int, else late: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        finishOldest()
        guard waitUntilStarted(count) else {
            recordTimeout(late, sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// The ids of the jobs in the order they started.
    var started: [Int] { read { startOrder } }
    /// The jobs that started on a thread that called `run(_:)` (see ``CallerThread``).
    var startedOnCallersThread: [Int] { read { onCaller } }
}

// MARK: - Counting callbacks

/// Counts callbacks and lets the test wait, with a bound, until a number of them have come.
final class Arrivals<Element>: Books, @unchecked Sendable {
    private var items: [Element] = []

    func append(_ item: Element) { update { items.append(item) } }

    /// Waits up to `seconds` for `count` arrivals; on timeout records a hang-kind failure that
    /// says `what` did not happen and returns `false`.
    @discardableResult
    func wait(
        for count: Int, _ what: String, seconds: Double = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if waitUntil(seconds: seconds, { items.count >= count }) { return true }
        let arrived = read { items.count }
        recordTimeout("\(what) (\(arrived) of \(count) arrived)", sourceLocation: sourceLocation)
        return false
    }

    /// Waits up to `seconds` for `count` arrivals, recording nothing (for exit tests' children).
    func arrived(_ count: Int, within seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { items.count >= count }
    }

    var count: Int { read { items.count } }
    var all: [Element] { read { items } }
}

// MARK: - Calls that must not block

/// Calls `body` on a new thread and waits up to `seconds` for it to return. A call that blocks
/// becomes a hang-kind failure saying `what` did not happen, instead of a hung test: the
/// test's own thread is never the one left waiting.
@discardableResult
func callOnAnotherThread(
    _ what: String, seconds: Double = 2,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    let returned = Signal()
    startThread {
        body()
        returned.fire()
    }
    return returned.wait(what, seconds: seconds, sourceLocation: sourceLocation)
}

// MARK: - Visibility: plain memory the Thread Sanitizer watches

/// A plain, unguarded value: written on one thread and read on another, it is safe only if the
/// learner's code orders the two — and the Thread Sanitizer reports it when it does not.
final class Plain: @unchecked Sendable {
    var value = 0
}

/// A count the test's threads share without ordering anything for the Thread Sanitizer (a relaxed
/// atomic): a lock here would order the learner's code too, and hide its races.
final class UnorderedCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// The books of a fake that is not thread-safe, whose pieces of work — a server's requests, a
/// limiter's jobs, numbered from 1 — must come one at a time, and what one left must be visible to
/// the next: each piece reads the plain state when it starts (the subclass reads it first, before
/// any bookkeeping lock could order it), and its finish, held until the test lets it go
/// (``finish(_:write:)``), writes the plain state last, on a thread of its own, right before it
/// calls back. Only the learner's code can order that write before the next piece's read.
class UnguardedWork: Books, @unchecked Sendable {
    /// The number of the piece finished last: written by each finish, read by each piece.
    let lastFinished = Plain()
    /// `notes[n - 1]`, written by the test before it asks for piece n, read by piece n.
    let notes: [Plain]
    private var log: [(number: Int, sawFinished: Int, sawNote: Int)] = []
    private var held: [Int: @Sendable () -> Void] = [:]

    init(pieces: Int) {
        notes = (0..<pieces).map { _ in Plain() }
    }

    /// Records what piece `number` saw when it started, and holds its `finish`.
    func started(_ number: Int, sawFinished: Int, sawNote: Int, finish: @escaping @Sendable () -> Void) {
        update {
            log.append((number, sawFinished, sawNote))
            held[number] = finish
        }
    }

    /// Finishes piece `number` from a new thread; with `write`, the piece first records itself in
    /// the plain state. Returns `false` if that piece is not held.
    @discardableResult
    func finish(_ number: Int, write: Bool) -> Bool {
        guard let finish = update({ held.removeValue(forKey: number) }) else { return false }
        let lastFinished = lastFinished
        startThread {
            if write { lastFinished.value = number }
            finish()
        }
        return true
    }

    /// Finishes every held piece, without writing. Call it in a `defer`.
    func finishAll() {
        let all = update { () -> [Int] in held.keys.sorted() }
        for number in all { finish(number, write: false) }
    }

    func waitUntilStarted(_ count: Int, seconds: Double = 2) -> Bool {
        waitUntil(seconds: seconds) { log.count >= count }
    }

    /// What each piece saw when it started, in the order they started.
    var seen: [(number: Int, sawFinished: Int, sawNote: Int)] { read { log } }
}

/// A server object that is not thread-safe, as many SDK clients are not: one request at a time may
/// use it, and what one request's answer left in it (``UnguardedWork/lastFinished``) must be visible
/// to the next request. Answers are held until the test releases them (``answer(_:write:)``).
final class UnguardedServer: UnguardedWork, AudioAPI, @unchecked Sendable {
    private let numbers = UnorderedCount()

    init(requests: Int) { super.init(pieces: requests) }

    func fetchList(_ completion: @escaping ([Podcast]) -> Void) {
        let sawAnswered = lastFinished.value
        let number = numbers.next()
        let sawNote = number <= notes.count ? notes[number - 1].value : -1
        let completion = Unchecked(completion)
        started(number, sawFinished: sawAnswered, sawNote: sawNote) { completion.value([Podcast(title: "Episode \(number)")]) }
    }

    /// Answers request `number` from a new thread; with `write`, the answer first records itself in
    /// the server's plain state. Returns `false` if that request is not held.
    @discardableResult
    func answer(_ number: Int, write: Bool) -> Bool { finish(number, write: write) }

    /// Answers every held request, without writing. Call it in a `defer`.
    func answerAll() { finishAll() }
}

/// Jobs that share a session object that is not thread-safe, for a limiter with one slot: what a
/// job left in it before calling `done()` (``UnguardedWork/lastFinished``) must be visible to the
/// job that starts next. Each job's `done()` is held until the test finishes it (``finish(_:write:)``).
final class UnguardedJobs: UnguardedWork, @unchecked Sendable {
    init(jobs: Int) { super.init(pieces: jobs) }

    /// Job `id`, counted from 1.
    func job(_ id: Int) -> (@escaping () -> Void) -> Void {
        { [self] done in
            let sawFinished = lastFinished.value
            let sawNote = notes[id - 1].value
            let done = Unchecked(done)
            started(id, sawFinished: sawFinished, sawNote: sawNote) { done.value() }
        }
    }
}
