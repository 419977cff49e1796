// near-miss hang: `present(_:)` waits for the screen on the caller's thread, so the second call blocks its caller until the first modal is dismissed — and on the UI queue, where the dismissal has to run, it never is.
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
    private let screenIsFree = DispatchSemaphore(value: 1)

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        screenIsFree.wait()  // take the screen, then ask the UI queue to show the modal
        ui.async { [self, screenIsFree] in
            modal.dismissAction = { screenIsFree.signal() }
            screen.present(modal)
        }
    }
}
