/// Starts `body` on a new thread and returns at once, with a signal that fires once `body` has
/// returned: for a test that looks, with bounds of its own, at whether a call has returned yet
/// (``finishes(within:_:)`` when it only waits for it).
package func startThreadSignalling(_ body: @escaping @Sendable () -> Void) -> Signal {
    let returned = Signal()
    startThread {
        body()
        returned.fire()
    }
    return returned
}
