import Chapter3Semaphores
import Dispatch
import Foundation
import Testing
import WorkbookTestSupport

// The contract (see the header of ModalPresenter.swift), clause by clause:
// - present(_:) returns at once, from any thread and from the UI queue:
//     nextWaitsForDismissal, manyThreads, presentOnTheUIQueue
// - the modal is shown on `ui`, later, never during the call to present(_:):
//     every test checks the queue; presentOnTheUIQueue checks "not during the call"
// - one at a time, the next only after the previous called its dismissAction, however long that takes:
//     nextWaitsForDismissal (A stays up 1.25 s), manyThreads, presentFromTheUIQueueInsideCallbacks
// - first come, first served (each thread's modals in its order): nextWaitsForDismissal, manyThreads
// - dismissAction is set before the modal is shown; it may be called while `screen.present(_:)` runs:
//     manyThreads(immediately)
// - present(_:) may be called from inside `screen.present(_:)` or right after a dismissAction:
//     presentFromTheUIQueueInsideCallbacks
// - waiting modals hold no worker of the global queues: waitingModalsLeaveTheGlobalQueuesAlone
// - the presenter may go away while a modal is on screen: releasedWithAModalOnScreen; or while modals
//     are waiting, and they are still shown: releasedWithModalsWaiting
//
// The dimensions (chapter.json, "dimensions"):
// - each thread's modals in its order, round after round (four threads, one presenter): firstComeFirstServedEveryRound
// - what the caller wrote before present(_:) is seen in screen.present(_:): whatTheCallerWroteIsSeenOnScreen
// - two presenters at once, one asked from the other's screen: twoPresentersAtOnce
// - every clause but the global queues', in generated scenarios (a serial or the main UI queue,
//     callers everywhere, modals dismissed four ways, asking for more while others wait, the
//     presenter let go): explored (Exercise3_1Tests+Explored.swift)

@Suite("3.1 ModalPresenter — modals one at a time", .gradedUnderTSan)
struct Exercise3_1Tests {
    /// How long the first modal stays up in ``nextWaitsForDismissal()``: longer than a `wait(timeout:)`
    /// of a second or a second and a half, so that one that gives up and shows the next modal anyway
    /// (its result ignored, or only logged) is caught. The tests run in parallel, so this hold is the
    /// suite's longest step, not an addition to it.
    static let longHold = 2.0

    static let syncOntoUI =
        "present(_:) was called here on the UI queue itself. libdispatch stops a program whose block, running on a serial queue, calls `sync` on that same queue — it would wait for itself forever. Which `sync` in your code can run on the UI queue?"

    @Test("the next modal waits until the one on screen is dismissed, however long that takes, and they come in the order asked")
    func nextWaitsForDismissal() {
        withPresenter { _, screen, presenter in
            let modals = ["A", "B", "C"].map(FakeModal.init)

            let all = Unchecked(modals)
            guard callOnAnotherThread(
                "present(_:) did not return within 2 s while an earlier modal waited to be dismissed — it must never block its caller (README: \"Waiting on the caller's thread\" and the pitfall of 3.1)",
                { for modal in all.value { presenter.value.present(modal) } }
            ) else { return }

            for (index, modal) in modals.enumerated() {
                guard screen.waitUntilShown(index + 1) else {
                    recordTimeout(index == 0
                        ? "modal A was not shown within 2 s of present(_:) — does the first modal wait for a place nobody gives back?"
                        : "modal \(modal.name) was not shown within 2 s of modal \(modals[index - 1].name) being dismissed — does the dismissAction give the screen back?")
                    return
                }
                if index + 1 < modals.count {
                    // The first modal stays up for more than a second, the others briefly.
                    let start = Date()
                    let shownTooSoon = screen.waitUntilShown(index + 2, seconds: index == 0 ? Self.longHold : 0.15)
                    verify(!shownTooSoon, "modal \(modals[index + 1].name) was shown \(duration(since: start)) after modal \(modal.name), while \(modal.name) was still on screen — the next modal must wait until the one before it calls its dismissAction, however long that takes.\(timedWaitHint(since: start))")
                }
                screen.dismiss(modal)
            }
            let shown = screen.shownNames, mostAtOnce = screen.mostAtOnce
            verify(shown == ["A", "B", "C"], "modals were shown in the order \(shown); they must be shown first come, first served")
            verify(mostAtOnce == 1, "\(mostAtOnce) modals were on screen at the same time; there must never be more than one")
            verify(screen.dismissedWithoutAction.isEmpty, "modals \(screen.dismissedWithoutAction) were dismissed but had no dismissAction — the presenter must set it before showing the modal, so that the modal can say it is gone")
            verify(screen.shownOffTheUIQueue.isEmpty, "modals \(screen.shownOffTheUIQueue) were shown off the UI queue; call the screen only on `ui`")
        }
    }

    @Test("100 modals from four threads: never two on screen, each shown once, each thread's in order",
          arguments: [DismissStyle.immediately, .soon])
    func manyThreads(dismissed style: DismissStyle) {
        withPresenter(dismiss: style) { _, screen, presenter in
            let modals = Unchecked((0..<4).map { thread in (0..<25).map { FakeModal("\(thread)-\($0)") } })

            guard runConcurrently(threads: 4, iterations: 25, "presenting 100 modals from 4 threads", seconds: 2, { thread, iteration in
                presenter.value.present(modals.value[thread][iteration])
            }) else { return }
            guard screen.waitUntilShown(100) else {
                let how = style == .immediately
                    ? "each was dismissed while screen.present(_:) was still running (a modal the user closes at once)"
                    : "each was dismissed soon after it appeared"
                recordTimeout("only \(screen.shownNames.count) of 100 modals were shown within 2 s, although \(how) — does every dismissAction give the screen back, even one called before screen.present(_:) returns? Set it before presenting, and do not hold a lock the dismissAction needs while you present.")
                return
            }
            let shown = screen.shownNames
            let mostAtOnce = screen.mostAtOnce
            verify(mostAtOnce == 1, "\(mostAtOnce) modals were on screen at the same time; there must never be more than one")
            let shownOnce = shown.count == 100 && Set(shown).count == 100
            verify(shownOnce, "\(shown.count) presentations of \(Set(shown).count) different modals; each of the 100 must be shown exactly once")
            for thread in 0..<4 {
                let inOrder = shown.filter { $0.hasPrefix("\(thread)-") } == (0..<25).map { "\(thread)-\($0)" }
                verify(inOrder, "thread \(thread)'s modals were not shown in the order it asked for them")
            }
            let withoutAction = screen.dismissedWithoutAction.count
            verify(withoutAction == 0, "\(withoutAction) modals were dismissed but had no dismissAction — set it before showing the modal, so that the modal can say it is gone")
            let offQueue = screen.shownOffTheUIQueue.count
            verify(offQueue == 0, "\(offQueue) modals were shown off the UI queue; call the screen only on `ui`")
        }
    }

    // The tests below call present(_:) on the UI queue. An answer that uses `ui.sync` there stops
    // the program, so they run in a child process (an exit test): a crash fails them alone.

    @Test("present(_:) called on the UI queue returns at once, and the modal is shown later, in a block of its own on the UI queue")
    func presentOnTheUIQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                withPresenter { ui, screen, presenter in
                    let a = FakeModal("A"), b = FakeModal("B")

                    let shownDuringTheCalls = Tally<[String]>()
                    let returned = Signal()
                    ui.queue.async {
                        presenter.value.present(a)
                        presenter.value.present(b)
                        shownDuringTheCalls.append(screen.shownNames)
                        returned.fire()
                    }
                    guard returned.happens(within: 2) else {
                        return childTimedOut("two present(_:) calls made on the UI queue did not return within 2 s — present must never block its caller, and a blocked UI queue is a frozen app (README: \"Waiting on the caller's thread\")")
                    }
                    if let early = shownDuringTheCalls.all.first, let first = early.first {
                        return "modal \(first) was shown during the call to present(_:) made on the UI queue. present(_:) only asks for the modal: show it later, in a block of its own on `ui`"
                    }
                    if let late = screen.dismiss(a, onceShown: 1, else: "modal A, asked for on the UI queue, was not shown within 2 s — is something waiting on the UI queue, where the modal must be shown?") { return late }
                    if let late = screen.dismiss(b, onceShown: 2, else: "modal B was not shown within 2 s of modal A being dismissed — does the dismissAction give the screen back?") { return late }
                    return screen.problem(showing: ["A", "B"])
                }
            }
        }
        judgeChild(result, "Calling present(_:) twice on the UI queue", ifItCrashed: Self.syncOntoUI)
    }

    @Test("present(_:) may be called from inside screen.present(_:), and right after a dismissAction, on the UI queue")
    func presentFromTheUIQueueInsideCallbacks() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                withPresenter { _, screen, presenter in
                    let a = FakeModal("A"), b = FakeModal("B"), c = FakeModal("C")
                    // When A is shown, it asks for B; when B's dismissAction has run, the UI asks for C.
                    screen.whenShown { modal in if modal === a { presenter.value.present(b) } }
                    screen.whenDismissed { modal in if modal === b { presenter.value.present(c) } }

                    presenter.value.present(a)
                    guard screen.waitUntilShown(1) else { return childTimedOut("modal A was not shown within 2 s of present(_:)") }
                    // Half a second: an answer that shows B at once takes two queue hops to do it, which
                    // took longer than 0.15 s while other test processes ran.
                    if screen.waitUntilShown(2, seconds: 0.5) {
                        return "modal B, asked for from inside screen.present(A) on the UI queue, was shown while A was still on screen — it must wait until A calls its dismissAction"
                    }
                    screen.dismiss(a)
                    if let late = screen.dismiss(b, onceShown: 2, else: "modal B, asked for from inside screen.present(A) on the UI queue, was not shown within 2 s of A being dismissed — a present(_:) made on the UI queue must not wait on the UI queue, nor hold anything the dismissAction needs") { return late }
                    if let late = screen.dismiss(c, onceShown: 3, else: "modal C, asked for on the UI queue right after B's dismissAction returned, was not shown within 2 s") { return late }
                    return screen.problem(showing: ["A", "B", "C"])
                }
            }
        }
        judgeChild(result, "Asking for the next modal from inside screen.present(_:) and after a dismissAction", ifItCrashed: Self.syncOntoUI)
    }

    @Test("the presenter may go away while a modal is on screen: dismissing that modal later does not crash")
    func releasedWithAModalOnScreen() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 5, cutShort: cutShort) {
                let (ui, screen) = FakeScreen.onAUIQueue()
                let a = FakeModal("A")
                if let late = letGoAfterOneUse(
                    { ModalPresenter(screen: screen, ui: ui.queue) }, { presenter in presenter.present(a) },
                    started: { screen.waitUntilShown(1) }, else: "modal A was not shown within 2 s of present(_:)"
                ) { return late }
                screen.dismiss(a)
                guard ui.runsABlockSoon else {
                    return childTimedOut("dismissing modal A kept the UI queue busy for more than 2 s after the presenter had gone away")
                }
                return nil
            }
        }
        judgeChild(result, "Letting the presenter go while modal A was on screen, then dismissing A",
              ifItCrashed: releasedWhileTaken("presenter", "dismissAction"))
    }

    // MARK: - Dimensions

    @Test("100 modals from four threads, round after round: each thread's modals come first come, first served, every round")
    func firstComeFirstServedEveryRound() {
        // Four gated threads ask one presenter for 25 modals each, back to back, and the screen
        // dismisses each modal at once; then again, with a new presenter, round after round.
        // Requests that wait for the screen side by side (on a concurrent queue such as
        // `DispatchQueue.global()`) race for it whenever it is free, and a later request of the
        // same thread wins some of those races — in a round or two of these, if not in the first;
        // a private serial queue asks for the screen one request at a time, in order.
        let rounds = 5, threads = 4, perThread = 25
        for round in 0..<rounds {
            let goOn = withPresenter(dismiss: .immediately) { _, screen, presenter -> Bool in
                let modals = Unchecked((0..<threads).map { thread in (0..<perThread).map { FakeModal("\(thread)-\($0)") } })
                guard runConcurrently(threads: threads, iterations: perThread, "presenting \(threads * perThread) modals from \(threads) threads", seconds: 2, { thread, iteration in
                    presenter.value.present(modals.value[thread][iteration])
                }) else { return false }
                guard screen.waitUntilShown(threads * perThread) else {
                    recordTimeout("only \(screen.shownNames.count) of \(threads * perThread) modals were shown within 2 s, each dismissed at once (round \(round + 1)) — does every dismissAction give the screen back?")
                    return false
                }
                let shown = screen.shownNames
                for thread in 0..<threads {
                    let asked = modals.value[thread].map(\.name)
                    let got = shown.filter { $0.hasPrefix("\(thread)-") }
                    guard got == asked else {
                        let first = zip(got, asked).first { $0 != $1 }.map { " (\($0.0) came where \($0.1) belonged)" } ?? ""
                        recordIssue(Comment(rawValue: "thread \(thread)'s modals were not shown in the order it asked for them\(first), in round \(round + 1) of \(rounds) — they must be shown first come, first served. Requests that wait for the screen side by side, on a concurrent queue such as `DispatchQueue.global()`, go in whatever order they reach `wait()`: keep them on one private serial queue, which asks for the screen one request at a time, in order."))
                        return false
                    }
                }
                return true
            }
            if !goOn { return }
        }
    }

    @Test("modals waiting for the screen hold no worker of the global queues: the app's work on DispatchQueue.global() goes on")
    func waitingModalsLeaveTheGlobalQueuesAlone() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                // A fresh process: its global queues have a handful of workers, and on Linux their
                // pool grows by about one thread a second once they are all blocked. Sixty-four
                // modals wait while the first is up; then the app sends a block to
                // DispatchQueue.global(), behind any of the presenter's blocks sent there.
                let (ui, screen) = FakeScreen.onAUIQueue()
                let presenter = Unchecked(keptForever(ModalPresenter(screen: screen, ui: ui.queue)))
                let waiting = 64
                let modals = Unchecked((0...waiting).map { FakeModal("\($0)") })
                guard finishes({ for modal in modals.value { presenter.value.present(modal) } }) else {
                    return childTimedOut("\(waiting + 1) present(_:) calls did not return within 2 s — present must never block its caller")
                }
                guard screen.waitUntilShown(1) else { return childTimedOut("the first modal was not shown within 2 s of present(_:)") }
                let ran = Signal()
                DispatchQueue.global().async { ran.fire() }
                guard ran.happens(within: 1.5) else {
                    return childTimedOut("while \(waiting) modals waited for the screen, a block the app sent to DispatchQueue.global() did not run within 1.5 s: the waiting requests hold the global queues' worker threads, each parked in wait(), and on Linux the pool grows by only about a thread a second (Exercises/MEASUREMENTS.md, M9). Let one private serial queue do the waiting — it parks one thread of its own, however many modals wait (README: \"Going further\", a parked worker is a worker some pool does not have)")
                }
                // The app's work ran; now the modals come, in order.
                screen.dismissEverythingFromNowOn()
                guard screen.waitUntilShown(waiting + 1) else {
                    return childTimedOut("only \(screen.shownNames.count) of \(waiting + 1) modals were shown within 2 s, each dismissed at once")
                }
                if screen.shownNames != modals.value.map(\.name) {
                    return "\(waiting + 1) modals asked for back to back were not shown first come, first served"
                }
                return nil
            }
        }
        judgeChild(result, "Keeping 64 modals waiting while the app uses DispatchQueue.global()", ifItCrashed: Self.syncOntoUI)
    }

    @Test("what the caller wrote before present(_:) is seen in screen.present(_:), on the UI queue")
    func whatTheCallerWroteIsSeenOnScreen() {
        // Each modal comes with plain, unguarded data, written by the caller before present(_:) and
        // read by the screen on the UI queue: the Thread Sanitizer reports it unless present(_:)
        // hands the modal on through something that orders the two (a queue, a lock, a semaphore).
        withPresenter(dismiss: .soon) { _, screen, presenter in
            let modals = (1...4).map { FakeModal("\($0)") }
            let notes = (1...4).map { _ in Plain() }
            let seen = Tally<(modal: String, note: Int)>()
            let notesByName = Unchecked(Dictionary(uniqueKeysWithValues: zip(modals.map(\.name), notes)))
            screen.whenShown { modal in seen.append((modal.name, notesByName.value[modal.name]?.value ?? -1)) }

            let all = Unchecked(Array(zip(modals, notes)))
            guard callOnAnotherThread("four present(_:) calls did not return within 2 s — present must never block its caller", {
                for (index, pair) in all.value.enumerated() {
                    pair.1.value = index + 1
                    presenter.value.present(pair.0)
                }
            }) else { return }
            // The screen's hook records what it saw right after the modal is counted as shown.
            guard screen.waitUntilShown(4), eventually({ seen.count >= 4 }) else {
                recordTimeout("only \(screen.shownNames.count) of 4 modals were shown within 2 s, each dismissed soon after it appeared")
                return
            }
            let got = seen.all.map { "\($0.modal): \($0.note)" }
            verify(got == ["1: 1", "2: 2", "3: 3", "4: 4"], "the screen saw \(got) — what the caller wrote before present(_:) must be what the screen sees")
        }
    }

    @Test("two presenters at once: the second one's modal, asked for from the first one's screen, is shown while the first one's is up")
    func twoPresentersAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 6, cutShort: cutShort) {
                // Two presenters, each with its own screen, sharing the app's UI queue.
                let ui = TestQueue(label: "workbook.ui")
                let first = FakeScreen(ui: ui), second = FakeScreen(ui: ui)
                defer { first.dismissEverythingFromNowOn(); second.dismissEverythingFromNowOn() }
                let presenters = Unchecked([first, second].map { keptForever(ModalPresenter(screen: $0, ui: ui.queue)) })
                let a = FakeModal("A"), b = FakeModal("B"), x = FakeModal("X"), y = FakeModal("Y")
                // While A is shown on the first screen, it asks the second presenter for X; when X
                // has been dismissed, the UI asks the second presenter for Y.
                first.whenShown { modal in if modal === a { presenters.value[1].present(x) } }
                second.whenDismissed { modal in if modal === x { presenters.value[1].present(y) } }

                presenters.value[0].present(a)
                presenters.value[0].present(b)
                guard first.waitUntilShown(1) else { return childTimedOut("modal A was not shown within 2 s of present(_:)") }
                let shared = "Two presenters share nothing: a `static` semaphore or queue, or a global, makes every presenter wait for the modals of all the others."
                guard second.waitUntilShown(1) else {
                    return childTimedOut("the second presenter's modal X, asked for while the first presenter's modal A was up on another screen, was not shown within 2 s. \(shared)")
                }
                second.dismiss(x)
                guard ui.runsABlockSoon else {
                    return childTimedOut("dismissing the second presenter's modal X kept the UI queue busy for more than 2 s")
                }
                if !second.dismissedWithoutAction.isEmpty {
                    return "modal X was dismissed but had no dismissAction — set it before showing the modal, so that the modal can say it is gone"
                }
                guard second.waitUntilShown(2) else {
                    return childTimedOut("the second presenter's modal Y, asked for right after X was dismissed, was not shown within 2 s while the first presenter's modal A was still up. \(shared)")
                }
                if first.shownNames != ["A"] {
                    return "the first screen showed \(first.shownNames) while A was still up — each presenter shows one modal at a time"
                }
                first.dismiss(a)
                guard first.waitUntilShown(2) else {
                    return childTimedOut("modal B was not shown within 2 s of modal A being dismissed, another presenter being busy meanwhile")
                }
                first.dismiss(b)
                second.dismiss(y)
                if first.shownNames != ["A", "B"] || second.shownNames != ["X", "Y"] {
                    return "the screens showed \(first.shownNames) and \(second.shownNames); expected [A, B] and [X, Y]"
                }
                return nil
            }
        }
        judgeChild(result, "Running two presenters at once", ifItCrashed: Self.syncOntoUI)
    }

    @Test("the presenter may go away with modals waiting: they are still shown, one at a time, and dismissing them does not crash")
    func releasedWithModalsWaiting() async {
        let result = await #expect(processExitsWith: .failure, observing: childOutput, childEnds) { [cutShort = AfterATimeOut.forChild as ChildCutShort] in
            runInChild(seconds: 8, cutShort: cutShort) {
                let (ui, screen) = FakeScreen.onAUIQueue()
                // A presenter released fresh, never used.
                do { _ = ModalPresenter(screen: screen, ui: ui.queue) }
                let modals = ["A", "B", "C"].map(FakeModal.init)
                do {
                    let presenter = ModalPresenter(screen: screen, ui: ui.queue)
                    for modal in modals { presenter.present(modal) }
                }
                // The presenter is gone (as far as the caller knows): A is on screen or about to be,
                // B and C are waiting.
                // Modal n is modals[n - 1].
                if let problem = childOneAtATime(
                    modals.count, started: screen.waitUntilShown,
                    first: "modal A, asked for just before the presenter was released, was not shown within 2 s",
                    late: { number in "modal \(modals[number - 1].name), still waiting when the presenter was released, was not shown within 2 s of modal \(modals[number - 2].name) being dismissed — what was asked for must still be shown. What does a block of yours that runs after the presenter has gone find, and what does it do then?" },
                    overlap: { number in "modal \(modals[number].name) was shown while \(modals[number - 1].name) was still up, the presenter having been released — one at a time, whoever holds the presenter" },
                    finish: { number in screen.dismiss(modals[number - 1]); return nil }
                ) { return problem }
                guard ui.runsABlockSoon else {
                    return childTimedOut("dismissing the last modal kept the UI queue busy for more than 2 s after the presenter had gone away")
                }
                if screen.shownNames != ["A", "B", "C"] { return "modals were shown in the order \(screen.shownNames); expected [A, B, C]" }
                return nil
            }
        }
        judgeChild(result, "Letting the presenter go with modal A on screen and B and C waiting, then dismissing them",
                   ifItCrashed: releasedWhileTaken("presenter", "dismissAction"))
    }
}
