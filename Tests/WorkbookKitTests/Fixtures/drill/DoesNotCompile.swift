// Fault drill: a learner's edit that does not compile.
public func brokenOnPurpose() -> Int {
    return undefinedNameInTheDrill
}
