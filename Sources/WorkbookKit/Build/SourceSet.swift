/// Which code a build compiles into the chapter modules.
public enum SourceSet: String, Sendable {
    case exercises
    case solutions

    /// The folder the code comes from.
    public var folder: String { self == .exercises ? "Exercises" : "Solutions" }
}
