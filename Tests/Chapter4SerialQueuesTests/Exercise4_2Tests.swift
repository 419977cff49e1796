import Chapter4SerialQueues
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// Every call into `update` runs in a child process (see Children.swift): an update that `sync`s onto
// the store's queue from inside its own block traps. The token is read through `update` only, so
// that these tests do not depend on exercise 4.1.

@Suite("4.2 TokenStore.update(_:) — read, change and write in one step", .gradedUnderTSan)
struct Exercise4_2Tests {
    static let syncInsideSync =
        syncOntoItsOwnQueue + "Inside your `queue.sync { … }`: which call there asks for the queue again?"

    /// The token, read through `update` only.
    static func token(of store: TokenStore) -> String? {
        var seen: String?
        store.update { seen = $0; return $0 }
        return seen
    }

    /// A transform that treats the token as a counter and adds one.
    static func addOne(_ token: String?) -> String? {
        String((token.flatMap { Int($0) } ?? 0) + 1)
    }

    @Test("update calls transform once with the current token and keeps what it returns; nil clears it")
    func transformsTheCurrentToken() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let store = TokenStore()
                let seen = Tally<String?>()
                store.update { seen.append($0); return "a" }
                store.update { seen.append($0); return ($0 ?? "") + "b" }
                store.update { seen.append($0); return nil }
                store.update { seen.append($0); return $0 }
                if seen.all == [nil, "a", "ab", nil] { return nil }
                return "four updates called transform with \(seen.all); each update must call it exactly once, with the token the update before it left: [nil, \"a\", \"ab\", nil]"
            }
        }
        judgeChild(result, "Four updates in a row", ifItCrashed: Self.syncInsideSync)
    }

    @Test("transform runs on the store's queue")
    func transformRunsOnTheQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(cutShort: cutShort) {
                let store = TokenStore()
                guard let queue = queueProperty(of: store) else {
                    return "TokenStore has no stored `queue` any more; keep `let queue`: 4.1's token and update must share it"
                }
                let key = DispatchSpecificKey<Int>()
                queue.setSpecific(key: key, value: 42)
                let onQueue = Tally<Bool>()
                store.update { current in
                    onQueue.append(DispatchQueue.getSpecific(key: key) == 42)
                    return current
                }
                if onQueue.all == [true] { return nil }
                if onQueue.all.isEmpty { return "update returned without calling transform" }
                return "transform ran outside the store's `queue` — the queue 4.1's token uses; a get or a set of token, or another update, could then come between the read and the write. (A lock of your own does not exclude token's get and set.)"
            }
        }
        judgeChild(result, "One update", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two updates at the same moment: the second starts from the first one's result")
    func overlappingUpdates() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let store = Unchecked(TokenStore())
                let inTransform = [Signal(), Signal()]
                let meter = ConcurrencyMeter()
                let calls = Tally<Int>()
                guard gatedThreads(threads: 2, iterations: 1, seconds: 3, { thread, _ in
                    store.value.update { current in
                        meter.enter()
                        defer { meter.leave() }
                        calls.append(thread)
                        inTransform[thread].fire()
                        // If the other update can run its transform now, let it: wait until it does, or
                        // 0.25 s — which is what a correct update makes it do.
                        _ = inTransform[1 - thread].happens(within: 0.25)
                        return Exercise4_2Tests.addOne(current)
                    }
                }) else { return childTimedOut("the two update calls did not return within 3 s") }
                if meter.maximum > 1 {
                    return "two update calls ran their transforms at the same time, so the second did not start from the first one's result. Each `queue.sync` is safe on its own: what can happen between two of them?"
                }
                if calls.count != 2 { return "two updates called transform \(calls.count) times; each must call it exactly once" }
                let final = Exercise4_2Tests.token(of: store.value)
                if final != "2" { return "two updates that each add one left the token at \(final ?? "nil"); it must be \"2\" — one update was lost" }
                return nil
            }
        }
        judgeChild(result, "Two updates at the same moment", ifItCrashed: Self.syncInsideSync)
    }

    @Test("two threads taking turns: each update starts from the one before")
    func updatesTakingTurns() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                guard #available(macOS 15.0, *) else { return nil }
                let store = Unchecked(TokenStore())
                // Turn 2i + thread: that thread adds one. Only the store's queue can order one thread's
                // update after the other's; nothing else here does. So a read or a write of
                // `cachedToken` made off the queue is reported, every run.
                let problem = Turns.take(rounds: 200, gated: "the two threads taking turns", missed: { "turn \($0) never came" }) { _, _, turn in
                    let problems = Tally<String>()
                    store.value.update { current in
                        let seen = current.flatMap { Int($0) } ?? 0
                        if seen != turn { problems.append("update \(turn + 1) was given \(current ?? "nil"); the update before it had left \(turn)") }
                        return Exercise4_2Tests.addOne(current)
                    }
                    return problems.all.first
                }
                if let problem { return problem }
                let final = Exercise4_2Tests.token(of: store.value)
                if final != "400" { return "400 updates that each add one, made in turns, left the token at \(final ?? "nil"); expected 400" }
                return nil
            }
        }
        judgeChild(result, "Two threads taking turns updating", ifItCrashed: Self.syncInsideSync)
    }

    @Test("four threads × 1 000 updates that each add one: none is lost")
    func noUpdateIsLost() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                let store = Unchecked(TokenStore())
                let calls = Tally<Void>()
                guard runConcurrently(threads: 4, iterations: 1_000, "4 000 update calls", { _, _ in
                    store.value.update { calls.append(()); return Exercise4_2Tests.addOne($0) }
                }) else { return "the 4 000 update calls did not finish within 5 s" }
                let final = Exercise4_2Tests.token(of: store.value).flatMap { Int($0) } ?? 0
                if final != 4_000 {
                    return "4 000 updates that each add one left the counter at \(final): \(4_000 - final) were lost. The Thread Sanitizer saw nothing, because every single access was on the queue — but another update ran between a read and its write."
                }
                if calls.count != 4_000 { return "4 000 updates called transform \(calls.count) times; each must call it exactly once" }
                return nil
            }
        }
        judgeChild(result, "Four threads making 4 000 updates", ifItCrashed: Self.syncInsideSync)
    }
}

// The dimensions of issue 15: every pair of update and a get or set at once, and a transform that
// uses another store. A get or a set is, by 4.1's contract, a block on the store's queue; the test
// makes that block itself, so that these tests do not depend on exercise 4.1 (a wrong 4.1 would
// otherwise fail here, and a wrong update would make the Thread Sanitizer blame TokenStore.swift).
extension Exercise4_2Tests {
    /// The operations the contract orders: `update`, and a get or set — a block on the store's queue.
    static let operations = ["update", "get or set"]

    @Test("every pair of update and a get or set at the same moment: no update is lost, nothing runs between an update's read and its write")
    func everyPairAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                guard queueProperty(of: TokenStore()) != nil else {
                    return "TokenStore has no stored `queue` any more; keep `let queue`: 4.1's token and update must share it"
                }
                return runEveryPairAtOnce(Exercise4_2Tests.operations) { pair in
                    let store = Unchecked(TokenStore())
                    let queue = queueProperty(of: store.value)!
                    // Counts what runs at once: transforms, and the test's blocks on the store's queue.
                    let meter = ConcurrencyMeter()
                    let calls = Tally<Void>()
                    let call: @Sendable (String, Int, Int) -> String? = { operation, _, _ in
                        if operation == "update" {
                            store.value.update { current in
                                meter.enter()
                                defer { meter.leave() }
                                calls.append(())
                                return Exercise4_2Tests.addOne(current)
                            }
                        } else {
                            queue.sync {
                                meter.enter()
                                meter.leave()
                            }
                        }
                        return nil
                    }
                    let check: () -> String? = {
                        if meter.maximum > 1 {
                            return "a transform ran at the same time as another transform or a block on the store's queue (a get or a set): something of the store ran between an update's read and its write"
                        }
                        let updates = [pair.first, pair.second].filter { $0 == "update" }.count * 2 * 150
                        if calls.count != updates { return "\(updates) updates called transform \(calls.count) times; each must call it exactly once" }
                        let final = Exercise4_2Tests.token(of: store.value).flatMap { Int($0) } ?? 0
                        if final < updates { return "\(updates) updates that each add one left the counter at \(final): \(updates - final) were lost" }
                        if final > updates { return "\(updates) updates that each add one, on a new store, left the counter at \(final): the store started from a token it never had — each store keeps its own" }
                        return nil
                    }
                    return (call, check)
                }
            }
        }
        judgeChild(result, "Every pair of update and a get or set at the same moment", ifItCrashed: Self.syncInsideSync)
    }

    /// What the test asks for from elsewhere while a transform runs: a plain block on the store's
    /// queue (what 4.1's get and set are: these tests do not call them, so that they do not depend
    /// on 4.1), or another update.
    enum Meanwhile: String, CaseIterable, Sendable {
        case blockOnTheQueue = "a block on the store's queue (as 4.1's get and set are)"
        case update = "another update"
    }

    @Test("while a transform runs, a block on the store's queue or another update, asked for from a thread or any kind of queue (main too), waits until the update has written")
    func nothingComesBetweenTheReadAndTheWrite() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                guard queueProperty(of: TokenStore()) != nil else {
                    return "TokenStore has no stored `queue` any more; keep `let queue`: 4.1's token and update must share it"
                }
                for site in CallSite.allCases {
                    for meanwhile in Meanwhile.allCases {
                        if let problem = Exercise4_2Tests.asked(meanwhile, from: site) { return problem }
                    }
                }
                return nil
            }
        }
        judgeChild(result, "Asking for a block on the store's queue, or another update, while a transform runs", ifItCrashed: Self.syncInsideSync)
    }

    /// One update whose transform, holding on, has `meanwhile` asked for from `site`; the
    /// transform goes on once that call has returned, or 0.15 s after it started. Returns a sentence,
    /// or `nil` when what was asked for waited until the update had written.
    static func asked(_ meanwhile: Meanwhile, from site: CallSite) -> String? {
        let store = Unchecked(TokenStore())
        store.value.update { _ in "before" }
        let queue = queueProperty(of: store.value)!
        let transforming = Flag()
        let cameBetween = Flag()
        let innerSaw = Tally<String?>()
        let started = Signal(), returned = Signal()
        let returnedDuring = Flag()
        let what = "\(meanwhile.rawValue), asked for from \(site) during a transform,"
        guard finishes(within: 3, {
            store.value.update { _ in
                transforming.set(true)
                site.start {
                    started.fire()
                    switch meanwhile {
                    case .blockOnTheQueue:
                        queue.sync { if transforming.value { cameBetween.set(true) } }
                    case .update:
                        store.value.update { inner in
                            if transforming.value { cameBetween.set(true) }
                            innerSaw.append(inner)
                            return "inner, after \(inner ?? "nil")"
                        }
                    }
                    returned.fire()
                }
                if started.happens(within: 1) { returnedDuring.set(returned.happens(within: 0.15)) }
                transforming.set(false)
                return "outer"
            }
        }) else {
            return childTimedOut("an update did not return within 3 s while \(what) waited for it")
        }
        guard returnedDuring.value || returned.happens(within: 2) else {
            return childTimedOut("\(what) did not return within 2 s after the update had returned")
        }
        if cameBetween.value {
            return "\(what) ran before that transform had returned: nothing may come between an update's read and its write"
        }
        guard meanwhile == .update else { return nil }
        let final = token(of: store.value)
        if innerSaw.all != ["outer"] || final != "inner, after outer" {
            let saw = innerSaw.all.map { $0.map { "\"\($0)\"" } ?? "nil" }
            return "\(what) had its transform handed \(saw.isEmpty ? "nothing" : saw.joined(separator: ", ")) and the store then held \(final.map { "\"\($0)\"" } ?? "nil"); the second update starts from the first one's result (\"outer\"), so the store holds \"inner, after outer\""
        }
        return nil
    }

    @Test("transform may use another store: its token, and its update")
    func transformMayUseAnotherStore() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 4, cutShort: cutShort) {
                let one = Unchecked(TokenStore()), two = Unchecked(TokenStore())
                // One store's transform reads and updates the other store, as code that keeps two
                // tokens in step would. With a lock or a queue shared by every store, the inner
                // update waits for the outer one, forever.
                guard finishes(within: 2, {
                    one.value.update { _ in
                        let other = Exercise4_2Tests.token(of: two.value)
                        two.value.update { _ in "two" }
                        return "one, after \(other ?? "nil")"
                    }
                }) else {
                    return childTimedOut("an update of one store whose transform updates a second store did not return within 2 s. Each store has its own queue: a lock or a queue shared by every store (`static`) makes the second update wait for the first, which waits for it")
                }
                let first = Exercise4_2Tests.token(of: one.value), second = Exercise4_2Tests.token(of: two.value)
                if first != "one, after nil" || second != "two" {
                    return "after one store's transform updated a second store, the stores hold \(first ?? "nil") and \(second ?? "nil"); expected \"one, after nil\" and \"two\" — each store keeps its own token"
                }
                return nil
            }
        }
        judgeChild(result, "An update whose transform updates another store", ifItCrashed: Self.syncInsideSync)
    }
}
