// near-miss hang: `DispatchQueue.global().async` stands where the private serial queue belongs: every waiting modal parks a worker of the global queues in `wait()`, so with many modals waiting the app's own work on `DispatchQueue.global()` starves (the pool grows by about a thread a second) — and the waiting requests race for the screen, not first come, first served.
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
        DispatchQueue.global().async { [self] in
            screenIsFree.wait()
            ui.async { [self, screenIsFree] in
                modal.dismissAction = { screenIsFree.signal() }
                screen.present(modal)
            }
        }
    }
}
