import Dispatch

// Exercise 3.1 — modals one at a time.
//
// Several requests finish in any order, and each wants to show a modal. `ModalPresenter` must
// show them first come, first served, and one at a time: the next modal goes on screen only after
// the one before it has called its `dismissAction`.
// - `screen.present(_:)` is called on the `ui` queue, and only there.
// - `present(_:)` never blocks its caller. It is usually called on the UI queue itself, and a
//   blocked UI queue is a frozen app.
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
