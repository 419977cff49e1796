/// Carries a value that is not `Sendable` (a learner's closure or object) across threads.
///
/// The exercises are written in the Swift 5 language mode on purpose: they hand out plain closures
/// and classes whose thread safety is exactly what the tests examine. Wrapping them here is the test's
/// way of saying "sending this to other threads is the point".
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
