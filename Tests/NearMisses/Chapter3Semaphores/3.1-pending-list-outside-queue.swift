// near-miss race: The list of waiting modals is appended to on the caller's thread, outside the private queue, so two threads presenting at once write it at the same time — a data race that can lose or repeat modals.
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
    private var waiting: [ModalPresentable] = []

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        waiting.append(modal)  // keep them in the order they were asked for
        queue.async { [self] in
            screenIsFree.wait()
            let next = waiting.removeFirst()
            ui.async { [self, screenIsFree] in
                next.dismissAction = { screenIsFree.signal() }
                screen.present(next)
            }
        }
    }
}
