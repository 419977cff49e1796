import Dispatch
import Foundation
import Testing
import WorkbookTestSupport
import WorkbookWire

// 5.2's and 5.3's dimension tests (issue 15), shared: both exercises are "call these pieces of work,
// then run `completion` on `queue` once, after every callback", and differ only in how the pieces
// are handed over. Each test runs in a child process (a wrong answer may trap or hang there) and
// says what went wrong in a sentence; `CompletionExercise` (below) turns it into a failure with
// `judgeChild`, for both suites.
//
// The dimensions, as chapter.json declares them:
// - queues: every scenario with `queue` serial, concurrent, and the very queue the caller runs on;
// - visibility: what each callback's work wrote, with no lock of the test's in between, is read by
//   completion — the happens-before edge "completion runs after every callback" promises;
// - reentrance: callbacks made from `queue` itself, and pieces that start another call inside them;
// - instances: two calls at once, and a third started from one's completion;
// - timedWaits: one callback held back for 1.6 s — completion must wait for it, however long.

/// A piece of work: 5.2's `work`, or one of 5.3's functions.
typealias Piece = (@escaping () -> Void) -> Void

/// How the dimension tests call the function under test with a list of pieces (5.2: `times:
/// pieces.count`, each call of `work` running the next piece; 5.3: the list itself).
struct CompletionCall: Sendable {
    /// The call, as a failure names it, for `count` pieces: "performAll(times: 3, …)".
    var name: @Sendable (_ count: Int) -> String
    /// What the pieces are called in failures: "work", "function".
    var piece: String
    /// The contract's clauses, as the exercise's header states them: what an explored failure names.
    var clauses: CompletionClauses
    var start: @Sendable (_ pieces: [Piece], _ queue: DispatchQueue, _ completion: @escaping () -> Void) -> Void
}

/// The clauses of 5.2's and 5.3's contracts that a watched run can break, in each header's words.
struct CompletionClauses: Sendable {
    /// The call starts every piece itself and returns without waiting: it never blocks its caller, nor `queue`.
    var returns: String
    /// `completion` runs exactly once, on `queue`, and only after every callback.
    var once: String
    /// `completion` is sent asynchronously, never called inside the call nor with `queue.sync`.
    var sentAsynchronously: String
    /// Calls at the same time, or from a completion, each wait for their own pieces only.
    var ownPiecesOnly: String
    /// A piece may call back more than once, and only its first callback counts (5.3); `nil` where
    /// the contract does not allow it (5.2).
    var repeats: String? = nil
    /// No pieces: nothing to wait for, `completion` sent to `queue` at once.
    var nothingToWaitFor: String
}

/// How a piece of a dimension test calls back.
enum PieceStyle: String, CaseIterable, Sendable {
    /// Before it returns, on the caller's thread.
    case synchronous = "calls back before it returns"
    /// Later, from a thread of its own.
    case anotherThread = "calls back from a thread of its own"
    /// From a block it sends to `queue` — the queue completion goes to.
    case fromTheQueue = "calls back from a block on `queue`"
    /// When the test releases it, from one of 4 threads at once.
    case held = "calls back when the test lets it, from one of 4 threads at once"
    /// It starts another call of the function under test (two pieces calling back before they
    /// return, the same `queue`) and calls back from that call's completion.
    case nested = "starts another call of the same function inside it and calls back from that call's completion"
    /// Twice before it returns: only where the contract lets a piece call back more than once.
    case twice = "calls back twice before it returns"
}

/// "work that calls back before it returns, then work that …": the pieces of a scenario.
func describe(_ styles: [PieceStyle], _ piece: String) -> String {
    guard let first = styles.first else { return "no \(piece)" }
    if styles.allSatisfy({ $0 == first }) { return "\(styles.count) × \(piece) that \(first.rawValue)" }
    return styles.map { "\(piece) that \($0.rawValue)" }.joined(separator: ", then ")
}

/// Keeps a queue busy (a barrier, so a concurrent queue too) until ``release()`` or `seconds`: a
/// completion sent with `async` meanwhile can only run after the release.
final class BarrierHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)

    init(_ probe: QueueProbe, seconds: Double = 1) {
        let started = DispatchSemaphore(value: 0)
        probe.queue.async(flags: .barrier) { [gate] in
            started.signal()
            _ = gate.wait(timeout: .now() + seconds)
        }
        _ = started.wait(timeout: .now() + seconds)
    }

    func release() { gate.signal() }
}

/// Whether every block sent to `probe.queue` so far has run within `seconds` (a barrier: on a
/// concurrent queue too).
func drained(_ probe: QueueProbe, within seconds: Double = 2) -> Bool {
    let done = Signal()
    probe.queue.async(flags: .barrier) { done.fire() }
    return done.happens(within: seconds)
}

/// One call of the function under test, watched: where and when its completion ran, and how many
/// of its callbacks had been made by then.
final class WatchedRun: @unchecked Sendable {
    let call: CompletionCall
    let styles: [PieceStyle]
    let form: HandedQueue
    let handed: QueueProbe
    private let lock = NSLock()
    /// The pieces that have called back (a piece that calls back again counts once).
    private var calledBack = Set<Int>()
    private var made: Int { calledBack.count }
    private var returned = false
    /// The thread making the call, while it is inside it.
    private var caller: pthread_t?
    private var seen: [(onQueue: Bool, callbacksBefore: Int, afterReturn: Bool, insideCall: Bool)] = []
    private let completed = DispatchSemaphore(value: 0)
    private let parked = Tally<Unchecked<() -> Void>>()
    /// Runs inside completion, after it has been noted (5.x's "a call started from a completion").
    var onCompletion: (() -> Void)?

    init(_ call: CompletionCall, _ styles: [PieceStyle], on form: HandedQueue, queue: QueueProbe? = nil) {
        self.call = call
        self.styles = styles
        self.form = form
        handed = queue ?? form.make(label: "workbook.handed-queue")
    }

    /// How failures name the handed queue, when `form`'s words do not fit it (the main queue).
    var queueName: String?

    /// "performAll(times: 3, …) on a concurrent queue, with work that …"
    var name: String {
        "\(call.name(styles.count)) on \(queueName ?? form.testDescription), with \(describe(styles, call.piece)),"
    }

    private func counted(_ index: Int, _ done: @escaping () -> Void) -> () -> Void {
        { [self] in
            lock.lock()
            calledBack.insert(index)
            lock.unlock()
            done()
        }
    }

    var pieces: [Piece] {
        let queue = handed.queue, call = self.call
        return styles.enumerated().map { index, style in
            switch style {
            case .synchronous:
                return { [self] done in counted(index, done)() }
            case .twice:
                return { [self] done in
                    let callback = counted(index, done)
                    callback()
                    callback()
                }
            case .anotherThread:
                return { [self] done in
                    let callback = Unchecked(counted(index, done))
                    startThread { callback.value() }
                }
            case .fromTheQueue:
                return { [self] done in
                    let callback = Unchecked(counted(index, done))
                    queue.async { callback.value() }
                }
            case .held:
                return { [self] done in parked.append(Unchecked(counted(index, done))) }
            case .nested:
                return { [self] done in
                    let callback = counted(index, done)
                    call.start([{ $0() }, { $0() }], queue) { callback() }
                }
            }
        }
    }

    var completion: () -> Void {
        { [self] in
            let onQueue = handed.isCurrent
            lock.lock()
            let insideCall = caller.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            seen.append((onQueue, made, returned, insideCall))
            lock.unlock()
            completed.signal()
            onCompletion?()
        }
    }

    /// Makes the call as the caller `form` says would, with `queue` kept busy until it has returned
    /// (held by the test, or running the caller itself); `false` if it did not return within 2 s.
    func start() -> Bool {
        let hold = form == .callers ? nil : BarrierHold(handed)
        let call = self.call, pieces = Unchecked(self.pieces), queue = handed.queue, completion = Unchecked(self.completion)
        let returned = handed.call(within: 2) { [self] in
            callStarts()
            call.start(pieces.value, queue, completion.value)
            callReturned()
        }
        hold?.release()
        return returned
    }

    /// Makes the call right here (from a completion, say): the caller is whatever runs this.
    func startHere() {
        callStarts()
        call.start(pieces, handed.queue, completion)
        callReturned()
    }

    func callStarts() {
        lock.lock(); defer { lock.unlock() }
        caller = pthread_self()
    }

    func callReturned() {
        lock.lock(); defer { lock.unlock() }
        returned = true
        caller = nil
    }

    /// Whether nothing sent to `queue` asynchronously could run before the call returned: the test
    /// held `queue` busy, or the call was made from a block on it and it is serial. On a concurrent
    /// queue its caller runs on, a block sent there may run at once, on another thread: there only
    /// a completion that ran on the caller's own thread inside the call is known not to be sent.
    private var queueBusyUntilReturn: Bool { form != .callers || handed.isSerial }

    private func ranInsideTheCall(_ completion: (onQueue: Bool, callbacksBefore: Int, afterReturn: Bool, insideCall: Bool)) -> Bool {
        !completion.afterReturn && (queueBusyUntilReturn || completion.insideCall)
    }

    /// How many held callbacks are parked.
    var parkedCount: Int { parked.count }

    /// Makes the held callbacks `range` (all by default) from 4 gated threads at once; `false` if
    /// they did not all return within 2 s.
    func releaseHeld(_ range: Range<Int>? = nil) -> Bool {
        let all = parked.all
        let callbacks = Unchecked(Array(all[range ?? all.indices]).map(\.value))
        let perThread = (callbacks.value.count + 3) / 4
        return gatedThreads(threads: 4, iterations: perThread, seconds: 2) { thread, iteration in
            let index = thread * perThread + iteration
            if index < callbacks.value.count { callbacks.value[index]() }
        }
    }

    var completions: Int {
        lock.lock(); defer { lock.unlock() }
        return seen.count
    }

    /// Waits at most `seconds` for the first completion.
    func firstCompletion(within seconds: Double = 2) -> Bool {
        completed.wait(timeout: .now() + AfterATimeOut.bound(seconds)) == .success
    }

    /// What is wrong with the completions so far, if anything. `queue` was busy until the call had
    /// returned, so a completion that ran before was not sent asynchronously.
    func problem() -> String? {
        lock.lock()
        let seen = self.seen
        lock.unlock()
        if let problem = completionProblem(
            name, ran: seen.map { ($0.onQueue, $0.callbacksBefore) }, callbacks: styles.count,
            moreThanOnce: "", offQueue: ", whatever kind of queue that is"
        ) { return problem }
        let only = seen[0]
        if ranInsideTheCall(only) {
            return only.insideCall
                ? "\(name) ran completion on the caller's thread before the call had returned: it did not run as a block of `queue`."
                : "\(name) ran completion before the call had returned, although `queue` was busy all that time: it did not run as a block of `queue`."
        }
        return nil
    }

    /// ``problem()`` as the clause it breaks, with what was seen: for the explored scenarios.
    func violation() -> Violation? {
        lock.lock()
        let seen = self.seen
        lock.unlock()
        let count = styles.count, clauses = call.clauses
        // Where a piece called back twice, a count that goes wrong breaks the clause about repeats.
        let counting = styles.contains(.twice) ? clauses.repeats ?? clauses.once : clauses.once
        if seen.isEmpty {
            return Violation(clause: clauses.once, observed: "\(name) never ran completion, although all \(count) callbacks had been made.", timedOut: true)
        }
        if seen.count > 1 {
            let early = seen.map(\.callbacksBefore).map(String.init).joined(separator: ", ")
            return Violation(clause: counting, observed: "\(name) ran completion \(seen.count) times (after \(early) of \(count) pieces had called back).")
        }
        if !seen[0].onQueue { return Violation(clause: clauses.once, observed: "\(name) ran completion somewhere other than the queue handed in.") }
        if seen[0].callbacksBefore < count {
            return Violation(clause: counting, observed: "\(name) ran completion when \(seen[0].callbacksBefore) of \(count) pieces had called back.")
        }
        if ranInsideTheCall(seen[0]) {
            return Violation(clause: clauses.sentAsynchronously, observed: seen[0].insideCall
                ? "\(name) ran completion on the caller's thread before the call had returned."
                : "\(name) ran completion before the call had returned, while `queue` was kept busy until then.")
        }
        return nil
    }

    /// Runs this scenario to the end: the call, the held callbacks, completion, `queue` caught up.
    func runToEnd() -> String? {
        guard start() else {
            return childTimedOut("\(name) did not return within 2 s: it blocks its caller" + (form == .callers
                ? " — made from a block on `queue`, a wait for something only `queue` can do (a `queue.sync`, or a completion sent there) never ends."
                : "; it must return without waiting for the callbacks."))
        }
        if styles.contains(.held) {
            guard releaseHeld() else { return childTimedOut("\(name): the callbacks did not return within 2 s; something in them blocks.") }
        }
        guard firstCompletion() else {
            let nested = styles.contains(.nested)
                ? " While one call waits, another call of the same function must still complete: each call counts its own pieces (a count shared by every call — a global, a `static var` — waits for the other call's pieces too), and nothing in it may wait for `queue` or hold a lock while it calls the pieces."
                : ""
            return childTimedOut("\(name) did not run completion within 2 s of the last callback." + nested)
        }
        guard drained(handed) else { return childTimedOut("\(name): `queue` stayed busy; something sent to it blocks it.") }
        return problem()
    }
}

/// A dimension test of 5.2's and 5.3's suites, as the exit test of ``CompletionExercise``'s
/// `inChild(_:_:sourceLocation:)` sends it to the child, which runs it on that suite's ``CompletionCall``.
enum CompletionDimension: Codable, Sendable {
    case scenarios(on: HandedQueue)
    case callbackWorkIsVisible(on: HandedQueue)
    case twoCallsAtOnce
    case waitsForASlowCallback

    /// The child's bound.
    var seconds: Double {
        switch self {
        case .callbackWorkIsVisible: 4
        case .scenarios, .twoCallsAtOnce, .waitsForASlowCallback: 8
        }
    }

    /// Runs the test on `call`: `nil`, or what went wrong.
    func run(_ call: CompletionCall) -> String? {
        switch self {
        case .scenarios(let form): CompletionDimensions.scenarios(call, on: form)
        case .callbackWorkIsVisible(let form): CompletionDimensions.callbackWorkIsVisible(call, on: form)
        case .twoCallsAtOnce: CompletionDimensions.twoCallsAtOnce(call)
        case .waitsForASlowCallback: CompletionDimensions.waitsForASlowCallback(call)
        }
    }
}

// MARK: - The dimension tests, as both suites run them

/// Which exercise's function a dimension test grades: 5.2's `performAll` or 5.3's `runAll`. An exit
/// test's child receives only `Codable` values (its capture list), so this is what it is sent, and
/// from it the child finds the suite's ``CompletionCall`` (`suite.call`).
///
/// Each suite still declares its dimension tests itself (a `@Test` cannot be declared in a protocol
/// extension); each test's body is one call of the method here of the same name, with
/// `Self.exercise`: what those tests do, and the failures they say, are written once.
enum CompletionExercise: String, Codable, Sendable {
    /// 5.2, ``Exercise5_2Tests``.
    case performAll
    /// 5.3, ``Exercise5_3Tests``.
    case runAll

    /// The suite: its `call`, and its `trapAdvice` for a child that trapped.
    var suite: any CompletionContract.Type {
        switch self {
        case .performAll: Exercise5_2Tests.self
        case .runAll: Exercise5_3Tests.self
        }
    }

    /// The function's name, as failures say it: "performAll".
    var name: String { rawValue }

    /// Whose thread a callback is made on, as `completionSeesTheCallbacksWork` says it: "callback"
    /// (each callback's thread), "function" (each function's thread).
    private var callingBack: String {
        switch self {
        case .performAll: "callback"
        case .runAll: "function"
        }
    }

    /// The callback `waitsForASlowCallback` holds back: "one callback", "one function's callback".
    private var heldBack: String {
        switch self {
        case .performAll: "one callback"
        case .runAll: "one function's callback"
        }
    }

    /// Runs `dimension` on the suite's call in a child process, and judges how the child ended
    /// (`what` it was doing, as a failure says it).
    ///
    /// One exit test for both suites: its body is the same for both, and the child finds the
    /// suite's call from `exercise`, sent in the capture list. (A method of a protocol extension
    /// both suites share could not hold it: that is a generic context, where the macro does not
    /// expand; this type is not generic.)
    private func inChild(_ dimension: CompletionDimension, _ what: String, sourceLocation: SourceLocation) async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds, sourceLocation: sourceLocation) { [exercise = self, dimension, cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: dimension.seconds, cutShort: cutShort) { dimension.run(exercise.suite.call) }
        }
        judgeChild(result, what, ifItCrashed: suite.trapAdvice, sourceLocation: sourceLocation)
    }

    /// queues and reentrance: `everyHandedQueue(_:)`, for one `HandedQueue` (its raw value, the
    /// test's argument).
    func everyHandedQueue(_ form: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let form = HandedQueue(rawValue: form)!
        await inChild(.scenarios(on: form), "\(name) with `queue` \(form.testDescription)", sourceLocation: sourceLocation)
    }

    /// visibility: `completionSeesTheCallbacksWork(_:)`, for one `HandedQueue` (its raw value).
    func completionSeesTheCallbacksWork(_ form: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let form = HandedQueue(rawValue: form)!
        await inChild(.callbackWorkIsVisible(on: form), "completion read what each \(callingBack)'s thread wrote just before calling back (`queue`: \(form.testDescription)). Nothing but \(name) orders those writes before completion: the last callback must see every other callback's work — a DispatchGroup, a lock or a serial queue does; a `.relaxed` atomic count does not (see \"Bug one: the race\" in the lesson)", sourceLocation: sourceLocation)
    }

    /// instances: `twoCallsAtOnce()`.
    func twoCallsAtOnce(sourceLocation: SourceLocation = #_sourceLocation) async {
        await inChild(.twoCallsAtOnce, "two calls of \(name) at once, and a third started from the first one's completion", sourceLocation: sourceLocation)
    }

    /// timedWaits: `waitsForASlowCallback()`.
    func waitsForASlowCallback(sourceLocation: SourceLocation = #_sourceLocation) async {
        await inChild(.waitsForASlowCallback, "\(name) with \(heldBack) held back 1.6 s", sourceLocation: sourceLocation)
    }

    /// overlap: `everyPairAtOnce(_:)`.
    func everyPairAtOnce(_ pair: OperationPair, sourceLocation: SourceLocation = #_sourceLocation) {
        CompletionDimensions.everyPairAtOnce(suite.call, pair, sourceLocation: sourceLocation)
    }
}

/// The dimension scenarios, for each exercise's suite to call in a child.
enum CompletionDimensions {
    /// queues and reentrance: every scenario with `queue` in the given form.
    static func scenarios(_ call: CompletionCall, on form: HandedQueue) -> String? {
        let lists: [[PieceStyle]] = [
            [],
            [.synchronous, .anotherThread, .synchronous],
            Array(repeating: .held, count: 40),
            [.fromTheQueue, .synchronous, .fromTheQueue],
            [.nested, .synchronous, .nested],
        ]
        for styles in lists {
            if let problem = WatchedRun(call, styles, on: form).runToEnd() { return problem }
        }
        return nil
    }

    /// visibility: each held callback's thread writes a plain value into a box its piece made,
    /// then calls back; completion reads every box first thing, with nothing of the test's in
    /// between. Only the function under test can order those writes before that read.
    static func callbackWorkIsVisible(_ call: CompletionCall, on form: HandedQueue) -> String? {
        final class Box: @unchecked Sendable { var value = 0 }
        let handed = form.make(label: "workbook.handed-queue")
        let count = 8
        let boxes = Tally<Box>(), parked = Tally<Unchecked<() -> Void>>()
        // Each box is made by its piece, inside the call under test: a report of the race then
        // names the learner's line that called the piece.
        let pieces: [Piece] = (0..<count).map { _ in
            { done in
                boxes.append(Box())
                parked.append(Unchecked(done))
            }
        }
        let sums = Tally<Int>(), completed = Signal()
        let seenBoxes = Unchecked(boxes)
        let completion: () -> Void = {
            // Plain reads, first: what each callback's thread wrote before calling back.
            let sum = seenBoxes.value.all.reduce(0) { $0 + $1.value }
            sums.append(sum)
            completed.fire()
        }
        let name = "\(call.name(count)) on \(form.testDescription), with \(count) × \(call.piece) whose callbacks each wrote a value just before calling back (from 4 threads at once),"
        let start = Unchecked((pieces, completion))
        guard handed.call(within: 2, { call.start(start.value.0, handed.queue, start.value.1) }) else {
            return childTimedOut("\(name) did not return within 2 s: it blocks its caller.")
        }
        // A completion sent to the queue too early — before any callback — reads the boxes now:
        // let it, before they are written, so that such an answer fails below as completing too
        // early, every run, rather than as a race of the test's own lines when the queue is slow to
        // run it. (An answer that blocks the queue until the callbacks come is not held up for long.)
        _ = handed.drained(seconds: 0.5)
        let made = boxes.all, callbacks = Unchecked(parked.all.map(\.value))
        guard made.count == count, callbacks.value.count == count else {
            return "\(name) started \(made.count) of its \(count) pieces"
        }
        let written = Unchecked(made)
        guard gatedThreads(threads: 4, iterations: 2, seconds: 2, { thread, iteration in
            let index = thread * 2 + iteration
            written.value[index].value = index + 1
            callbacks.value[index]()
        }) else { return childTimedOut("\(name): the callbacks did not return within 2 s; something in them blocks.") }
        guard completed.happens(within: 2) else { return childTimedOut("\(name) did not run completion within 2 s of the last callback.") }
        let expected = (1...count).reduce(0, +)
        if let sum = sums.all.first, sum != expected {
            return "\(name) ran completion before it could see what the callbacks' threads had written (their values added up to \(sum), not \(expected))."
        }
        return nil
    }

    /// instances: two calls at once, on one queue — each completes after its own callbacks only —
    /// and a third call started from the first one's completion, on that queue.
    static func twoCallsAtOnce(_ call: CompletionCall) -> String? {
        let queue = HandedQueue.serial.make(label: "workbook.handed-queue")
        let first = WatchedRun(call, [.held, .held], on: .serial, queue: queue)
        let second = WatchedRun(call, [.held], on: .serial, queue: queue)
        let third = WatchedRun(call, [.synchronous, .synchronous], on: .callers, queue: queue)
        let thirdStarted = Signal()
        first.onCompletion = {
            // From the first call's completion, on `queue`: the caller is that queue.
            third.startHere()
            thirdStarted.fire()
        }
        for run in [first, second] {
            guard run.start() else { return childTimedOut("\(run.name) did not return within 2 s: it blocks its caller.") }
        }
        let both = "with a first call (2 × \(call.piece)) still waiting for its callbacks,"
        guard second.releaseHeld() else { return childTimedOut("\(second.name): its callback did not return within 2 s; something in it blocks.") }
        guard second.firstCompletion() else {
            return childTimedOut("\(both) a second call's only callback was made, but the second call did not run its completion within 2 s. Each call must count its own pieces: a count shared by every call (a global, a `static var`) waits for the other call's pieces too.")
        }
        guard drained(queue) else { return childTimedOut("\(second.name): `queue` stayed busy; something sent to it blocks it.") }
        if let problem = second.problem() { return "\(both) \(problem)" }
        if first.completions > 0 {
            return "\(both) a second call's only callback was made — and the first call ran its completion too, although neither of its own callbacks had come; each call's completion waits for its own callbacks."
        }
        guard first.releaseHeld() else { return childTimedOut("\(first.name): its callbacks did not return within 2 s; something in them blocks.") }
        guard first.firstCompletion() else { return childTimedOut("\(first.name) did not run completion within 2 s of its last callback, after a second call had completed.") }
        guard thirdStarted.happens(within: 2) else {
            return childTimedOut("\(third.name), started from another call's completion (on `queue`), did not return within 2 s: something in it waits for `queue`, which is busy running the completion that made the call.")
        }
        guard third.firstCompletion() else { return childTimedOut("\(third.name), started from another call's completion, did not run its own completion within 2 s.") }
        guard drained(queue) else { return childTimedOut("\(third.name): `queue` stayed busy; something sent to it blocks it.") }
        if let problem = first.problem() { return problem }
        if let problem = third.problem() { return "started from another call's completion: \(problem)" }
        return nil
    }

    /// How long the slow callback is held back: longer than a second, the timeout a "don't wait for
    /// ever" guess most often picks.
    static let slowHold = 1.6

    /// timedWaits: three pieces, two calling back at once and one held back for ``slowHold``:
    /// completion must not run before the slow one, however long it takes.
    static func waitsForASlowCallback(_ call: CompletionCall) -> String? {
        let run = WatchedRun(call, [.synchronous, .held, .synchronous], on: .serial)
        guard run.start() else { return childTimedOut("\(run.name) did not return within 2 s: it blocks its caller.") }
        if run.firstCompletion(within: slowHold) {
            _ = drained(run.handed)
            return "\(run.name) ran completion while one callback was still outstanding (held back \(formatSeconds(slowHold)) by the test) — after \(run.completionsBefore) of 3 callbacks. A wait with a timeout that goes on anyway when the time is up is a guess, not a guarantee: completion must wait for the last callback, however long it takes. See the pitfall under \"Replies that come now, and replies that come later\" in the lesson."
        }
        guard run.releaseHeld() else { return childTimedOut("\(run.name): the slow callback did not return within 2 s; something in it blocks.") }
        guard run.firstCompletion() else { return childTimedOut("\(run.name) did not run completion within 2 s of the slow callback.") }
        guard drained(run.handed) else { return childTimedOut("\(run.name): `queue` stayed busy; something sent to it blocks it.") }
        return run.problem()
    }
}

extension WatchedRun {
    /// How many callbacks had been made when completion first ran.
    var completionsBefore: Int {
        lock.lock(); defer { lock.unlock() }
        return seen.first?.callbacksBefore ?? 0
    }
}

/// Hands out 0, 1, 2, … to the calls of 5.2's `work`, from any thread.
final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    /// The next index, or `nil` once `limit` have been handed out.
    func take(below limit: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < limit else { return nil }
        next += 1
        return next - 1
    }
}

// MARK: - Every pair of operations at the same moment

extension CompletionDimensions {
    /// The operations the overlap test pairs: a new call, and a callback of an earlier call.
    static let operations = ["a call", "a callback"]

    /// overlap: the two operations of `pair` at the same moment, from 2 gated threads each, 100 times
    /// each — every call given 2 pieces that park their callbacks; the callbacks a "callback" thread
    /// makes belong to calls made before the gate. Then every callback still parked is made, and
    /// each call must run completion exactly once, on `queue`. Records every failure itself.
    static func everyPairAtOnce(_ call: CompletionCall, _ pair: OperationPair, sourceLocation: SourceLocation = #_sourceLocation) {
        let target = TestQueue()
        let iterations = 100
        let callbackThreads = [pair.first, pair.second].filter { $0 == "a callback" }.count * 2
        let callThreads = 4 - callbackThreads
        let completions = Tally<(call: Int, onQueue: Bool)>(), arrived = DispatchSemaphore(value: 0)
        let calls = NextIndex()
        let total = callbackThreads * iterations / 2 + callThreads * iterations
        let parked = Tally<Unchecked<() -> Void>>()
        let start: @Sendable () -> Void = {
            guard let index = calls.take(below: total) else { return }
            let park: Piece = { done in parked.append(Unchecked(done)) }
            call.start([park, park], target.queue) {
                completions.append((index, target.isCurrent))
                arrived.signal()
            }
        }
        // The calls whose callbacks the "callback" threads make.
        let early = callbackThreads * iterations / 2
        let made: Void? = bounded("\(early) calls of \(call.name(2)) with \(call.piece) that had not called back yet,", sourceLocation: sourceLocation) {
            for _ in 0..<early { start() }
        }
        guard made != nil else { return }
        let earlyCallbacks = Unchecked(parked.all.map(\.value))
        guard earlyCallbacks.value.count == 2 * early else {
            recordIssue("\(early) calls of \(call.name(2)) started \(earlyCallbacks.value.count) pieces of \(call.piece); each must start both", sourceLocation: sourceLocation)
            return
        }
        let nextEarly = NextIndex()
        guard overlap(pair, threads: 2, iterations: iterations, seconds: 5, sourceLocation: sourceLocation, { operation, _, _ in
            if operation == "a call" {
                start()
            } else if let index = nextEarly.take(below: earlyCallbacks.value.count) {
                earlyCallbacks.value[index]()
            }
        }) else { return }
        // The callbacks of the calls made during the overlap, from 4 threads at once.
        let late = Unchecked(Array(parked.all.dropFirst(2 * early)).map(\.value))
        guard late.value.count == 2 * (total - early) else {
            recordIssue("\(total - early) calls of \(call.name(2)) made while \(pair.testDescription) ran started \(late.value.count) pieces of \(call.piece); each must start both", sourceLocation: sourceLocation)
            return
        }
        let nextLate = NextIndex()
        guard runConcurrently(threads: 4, iterations: (late.value.count + 3) / 4, "making the callbacks of the calls made during the overlap",
                              seconds: 5, sourceLocation: sourceLocation, { _, _ in
            if let index = nextLate.take(below: late.value.count) { late.value[index]() }
        }) else { return }
        let deadline = DispatchTime.now() + AfterATimeOut.bound(2)
        for _ in 0..<total where arrived.wait(timeout: deadline) == .timedOut {
            recordTimeout("\(pair.testDescription) at the same moment: \(total - completions.count) of \(total) calls of \(call.name(2)) did not run completion within 2 s of their last callback",
                          sourceLocation: sourceLocation)
            return
        }
        guard drain(target, "after the completions", sourceLocation: sourceLocation) else { return }
        var runs = [Int](repeating: 0, count: total)
        for seen in completions.all { runs[seen.call] += 1 }
        let twice = runs.filter { $0 > 1 }.count
        if twice > 0 {
            recordIssue(Comment(rawValue: "with \(pair.testDescription) at the same moment (from 2 threads each), \(twice) of \(total) calls of \(call.name(2)) ran completion more than once; each must run it exactly once, after its own two callbacks."),
                         sourceLocation: sourceLocation)
        }
        let offQueue = completions.all.filter { !$0.onQueue }.count
        if offQueue > 0 {
            recordIssue(Comment(rawValue: "with \(pair.testDescription) at the same moment, \(offQueue) completions ran on another thread or queue than the `queue` passed in."),
                         sourceLocation: sourceLocation)
        }
    }
}
