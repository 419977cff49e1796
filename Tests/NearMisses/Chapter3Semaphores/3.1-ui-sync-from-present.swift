// near-miss crash: `present(_:)` uses `ui.sync` to reach the list kept on the UI queue, so when it is called on the UI queue itself — as it usually is — it waits for itself and libdispatch stops the program.
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
        ui.sync { waiting.append(modal) }
        ui.async { [self] in showNextIfFree() }
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
