// near-miss hang: The private queue's block holds the presenter `[weak self]`, so when the presenter is released with modals waiting, the blocks still queued find it gone once the screen is free and drop their modals — they are never shown.
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
        queue.async { [weak self, screenIsFree] in
            screenIsFree.wait()
            guard let self else {
                screenIsFree.signal()
                return
            }
            ui.async { [self, screenIsFree] in
                modal.dismissAction = { screenIsFree.signal() }
                self.screen.present(modal)
            }
        }
    }
}
