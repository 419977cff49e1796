// Fault drill: an exercise file that compiles, but no longer declares what its chapter's tests use.
// The compiler's errors are then in the test module, not in an exercise file, so the grader cannot
// leave out just this exercise: the whole chapter is reported as not compiling.
public func somethingElseEntirely() -> Int {
    return 0
}
