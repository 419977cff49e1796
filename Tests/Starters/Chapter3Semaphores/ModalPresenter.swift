import Dispatch

// Exercise 3.1 — modals one at a time.
//
// Several requests finish in any order, and each wants to show a modal. `ModalPresenter` shows
// them one at a time. The contract:
// - `present(_:)` may be called from any thread, the `ui` queue included (it usually is), and
//   returns at once: it never waits for the screen to be free. A blocked UI queue is a frozen app.
// - `screen.present(_:)` is called on the `ui` queue (a serial queue: the main queue in an app),
//   and only there — later, in a block of its own, never during the call to `present(_:)`.
// - One at a time: the next modal goes on screen only after the one before it has called its
//   `dismissAction`, however long that takes.
// - First come, first served: modals are shown in the order `present(_:)` was called (from several
//   threads at once: each thread's modals in its order), each exactly once.
// - `dismissAction` is set before the modal is shown. The modal calls it once, on the `ui` queue —
//   maybe while `screen.present(_:)` is still running.
// - `present(_:)` may be called from inside `screen.present(_:)`, or right after a `dismissAction`.
// - The presenter may be released while a modal is on screen or waiting: the waiting ones are still
//   shown, and dismissing them later must not crash.
// - Modals waiting for the screen hold no worker thread of the global queues: the app's other work
//   on `DispatchQueue.global()` goes on meanwhile.
//
// This is the article's first attempt: a private serial queue, and nothing more. Run
// `swift run workbook check 3.1`, then read README.md next to this file.

/// Something that can be shown as a modal and says when it has been dismissed.
public protocol ModalPresentable: AnyObject {
    /// Set by whoever presents the modal; the modal calls it once, when it has been dismissed.
    var dismissAction: (() -> Void)? { get set }
}

/// The screen that shows modals. Call it on the UI queue only.
public protocol ModalScreen: AnyObject {
    func present(_ modal: ModalPresentable)
}

/// Shows modals one at a time, in the order they were asked for.
public final class ModalPresenter {
    private let screen: ModalScreen
    private let ui: DispatchQueue
    private let queue = DispatchQueue(label: "workbook.modal-presenter")

    /// - Parameters:
    ///   - screen: where the modals are shown.
    ///   - ui: the queue `screen` must be called on.
    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    /// Shows `modal` once every modal asked for before it has been dismissed. Returns at once.
    public func present(_ modal: ModalPresentable) {
        // A serial queue runs one block at a time... but each block only *schedules* the
        // presentation and is finished long before the modal is dismissed.
        queue.async { [self] in
            ui.async { [self] in
                screen.present(modal)
            }
        }
    }
}
