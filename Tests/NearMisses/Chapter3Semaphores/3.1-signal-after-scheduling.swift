// near-miss wrong: The semaphore is given back as soon as the presentation has been scheduled, not when the modal is dismissed, so it guards only the scheduling — the next modal goes on screen while the first is still up.
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
            screenIsFree.wait()
            ui.async { [self] in
                screen.present(modal)
            }
            screenIsFree.signal()
        }
    }
}
