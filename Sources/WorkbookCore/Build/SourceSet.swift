/// Which code a build compiles into the chapter modules.
package enum SourceSet: String, Sendable {
    case exercises
    case solutions

    /// The folder the code comes from.
    package var folder: String { self == .exercises ? "Exercises" : "Solutions" }
}
