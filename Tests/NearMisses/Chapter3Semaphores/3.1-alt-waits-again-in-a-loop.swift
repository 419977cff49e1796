// alternative: the queue waits for the screen in a loop of one-second waits, logging each time one runs out and waiting again, so it never goes on before the dismissal.
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
            while screenIsFree.wait(timeout: .now() + 1) == .timedOut {
                print("ModalPresenter: the modal on screen is still up; waiting on")
            }
            ui.async { [self, screenIsFree] in
                modal.dismissAction = { screenIsFree.signal() }
                screen.present(modal)
            }
        }
    }
}
