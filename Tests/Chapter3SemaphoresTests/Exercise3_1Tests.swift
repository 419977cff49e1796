import Chapter3Semaphores
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("3.1 ModalPresenter — modals one at a time")
struct Exercise3_1Tests {
    @Test("the next modal waits until the one on screen is dismissed, and they come in the order asked")
    func nextWaitsForDismissal() {
        let ui = TestQueue(label: "workbook.ui")
        let screen = FakeScreen(ui: ui)
        defer { screen.dismissEverythingFromNowOn() }
        let presenter = Unchecked(ModalPresenter(screen: screen, ui: ui.queue))
        let modals = ["A", "B", "C"].map(FakeModal.init)

        let all = Unchecked(modals)
        guard callOnAnotherThread(
            "present(_:) did not return within 2 s — it must never block its caller; let a private queue do the waiting",
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
                let shownTooSoon = screen.waitUntilShown(index + 2, seconds: 0.15)
                #expect(!shownTooSoon,
                        "modal \(modals[index + 1].name) was shown while modal \(modal.name) was still on screen — the next modal must wait until the one before it calls its dismissAction")
            }
            screen.dismiss(modal)
        }
        let shown = screen.shownNames, mostAtOnce = screen.mostAtOnce
        #expect(shown == ["A", "B", "C"], "modals were shown in the order \(shown); they must be shown first come, first served")
        #expect(mostAtOnce == 1, "\(mostAtOnce) modals were on screen at the same time; there must never be more than one")
        #expect(screen.dismissedWithoutAction.isEmpty,
                "modals \(screen.dismissedWithoutAction) were dismissed but had no dismissAction — the presenter must set it before showing the modal, so that the modal can say it is gone")
        #expect(screen.shownOffTheUIQueue.isEmpty, "modals \(screen.shownOffTheUIQueue) were shown off the UI queue; call the screen only on `ui`")
    }

    @Test("present(_:) called on the UI queue returns at once while a modal is on screen")
    func presentNeverBlocksTheUIQueue() {
        let ui = TestQueue(label: "workbook.ui")
        let screen = FakeScreen(ui: ui)
        defer { screen.dismissEverythingFromNowOn() }
        let presenter = Unchecked(ModalPresenter(screen: screen, ui: ui.queue))
        let a = FakeModal("A"), b = FakeModal("B")

        let returned = Signal()
        ui.queue.async {
            presenter.value.present(a)
            presenter.value.present(b)
            returned.fire()
        }
        guard returned.wait("two present(_:) calls made on the UI queue did not return within 2 s — present must never block its caller, and a blocked UI queue is a frozen app") else { return }
        guard screen.waitUntilShown(1) else {
            recordTimeout("modal A was not shown within 2 s of present(_:) — is something waiting on the UI queue, where the modal must be shown?")
            return
        }
        screen.dismiss(a)
        guard screen.waitUntilShown(2) else {
            recordTimeout("modal B was not shown within 2 s of modal A being dismissed — does the dismissAction give the screen back?")
            return
        }
        screen.dismiss(b)
        #expect(screen.shownNames == ["A", "B"], "modals were shown in the order \(screen.shownNames); expected [\"A\", \"B\"]")
        #expect(screen.shownOffTheUIQueue.isEmpty, "modals \(screen.shownOffTheUIQueue) were shown off the UI queue; call the screen only on `ui`")
    }

    @Test("100 modals from four threads: never two on screen, each shown once, each thread's in order",
          arguments: [DismissStyle.immediately, .soon])
    func manyThreads(dismissed style: DismissStyle) {
        let ui = TestQueue(label: "workbook.ui")
        let screen = FakeScreen(ui: ui, dismiss: style)
        defer { screen.dismissEverythingFromNowOn() }
        let presenter = Unchecked(ModalPresenter(screen: screen, ui: ui.queue))
        let modals = Unchecked((0..<4).map { thread in (0..<25).map { FakeModal("\(thread)-\($0)") } })

        guard runConcurrently(threads: 4, iterations: 25, "presenting 100 modals from 4 threads", { thread, iteration in
            presenter.value.present(modals.value[thread][iteration])
        }) else { return }
        guard screen.waitUntilShown(100) else {
            recordTimeout("only \(screen.shownNames.count) of 100 modals were shown within 2 s, although each was dismissed as soon as it appeared — does every dismissAction give the screen back?")
            return
        }
        let shown = screen.shownNames
        let mostAtOnce = screen.mostAtOnce
        #expect(mostAtOnce == 1, "\(mostAtOnce) modals were on screen at the same time; there must never be more than one")
        let shownOnce = shown.count == 100 && Set(shown).count == 100
        #expect(shownOnce, "\(shown.count) presentations of \(Set(shown).count) different modals; each of the 100 must be shown exactly once")
        for thread in 0..<4 {
            let inOrder = shown.filter { $0.hasPrefix("\(thread)-") } == (0..<25).map { "\(thread)-\($0)" }
            #expect(inOrder, "thread \(thread)'s modals were not shown in the order it asked for them")
        }
        let withoutAction = screen.dismissedWithoutAction.count
        #expect(withoutAction == 0, "\(withoutAction) modals were dismissed but had no dismissAction — set it before showing the modal, so that the modal can say it is gone")
        let offQueue = screen.shownOffTheUIQueue.count
        #expect(offQueue == 0, "\(offQueue) modals were shown off the UI queue; call the screen only on `ui`")
    }
}
