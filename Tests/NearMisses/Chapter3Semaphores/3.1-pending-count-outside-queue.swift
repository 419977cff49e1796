// near-miss race: A count of modals still waiting (for a badge, say) is raised on the callers' threads and lowered on the private queue, with nothing ordering the accesses — a data race that loses updates. (A racy array here, rather than an Int, could also corrupt memory and crash, so this near miss races on a count.)
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
    private var pending = 0  // modals asked for and not yet scheduled

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        pending += 1
        queue.async { [self] in
            screenIsFree.wait()
            pending -= 1
            ui.async { [self, screenIsFree] in
                modal.dismissAction = { screenIsFree.signal() }
                screen.present(modal)
            }
        }
    }
}
