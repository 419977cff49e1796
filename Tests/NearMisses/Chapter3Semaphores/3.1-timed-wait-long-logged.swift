// near-miss wrong: The result of a 30-second `wait(timeout:)` is looked at, but only to log a warning: a modal left up for half a minute has the queue go on anyway and show the next one — two modals on screen at once.
import Dispatch


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
    private let screenIsFree = DispatchSemaphore(value: 1)

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        queue.async { [self] in
            if screenIsFree.wait(timeout: .now() + 30) == .timedOut {
                print("ModalPresenter: the modal on screen has been up for a while")
            }
            ui.async { [self, screenIsFree] in
                modal.dismissAction = { screenIsFree.signal() }
                screen.present(modal)
            }
        }
    }
}
