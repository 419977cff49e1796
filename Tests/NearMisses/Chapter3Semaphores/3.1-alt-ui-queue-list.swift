// alternative: No thread waits at all: the waiting modals and an `isShowing` flag live on the UI queue, `present(_:)` adds to them with `ui.async`, and each `dismissAction` (called on the UI queue) shows the next one.
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
    private var waiting: [ModalPresentable] = []  // used on `ui` only
    private var showing = false                   // used on `ui` only

    public init(screen: ModalScreen, ui: DispatchQueue) {
        self.screen = screen
        self.ui = ui
    }

    public func present(_ modal: ModalPresentable) {
        ui.async { [self] in
            waiting.append(modal)
            showNextIfFree()
        }
    }

    /// On `ui`.
    private func showNextIfFree() {
        guard !showing, !waiting.isEmpty else { return }
        showing = true
        let next = waiting.removeFirst()
        next.dismissAction = { [self] in
            showing = false
            showNextIfFree()
        }
        screen.present(next)
    }
}
