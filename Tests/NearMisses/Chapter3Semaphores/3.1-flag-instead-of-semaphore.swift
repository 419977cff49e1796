// near-miss race: A Bool flag stands in for the semaphore: the private queue reads it while the UI queue's `dismissAction` writes it, with nothing ordering the two — a data race, with a thread spinning besides.
import Dispatch
import Foundation


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
    private var isShowing = false

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        queue.async { [self] in
            while isShowing { usleep(1_000) }  // wait until the screen is free
            isShowing = true
            ui.async { [self] in
                modal.dismissAction = { [self] in
                    isShowing = false
                }
                screen.present(modal)
            }
        }
    }
}
