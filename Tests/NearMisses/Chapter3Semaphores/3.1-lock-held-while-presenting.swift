// near-miss hang: The presenter keeps its lock while it shows the modal (`ui.sync` inside the locked section), so a modal closed during `screen.present(_:)` runs a `dismissAction` that waits for that lock forever, and nothing is shown again.
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
    private let screenFree = NSCondition()
    private var showing = false

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        queue.async { [self] in
            screenFree.lock()
            while showing { screenFree.wait() }
            showing = true
            ui.sync {  // show it while we still own the screen
                modal.dismissAction = { [self] in
                    screenFree.lock()
                    showing = false
                    screenFree.signal()
                    screenFree.unlock()
                }
                screen.present(modal)
            }
            screenFree.unlock()
        }
    }
}
