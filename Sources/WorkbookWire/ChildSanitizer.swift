/// What the Thread Sanitizer's options must say, and what an exit test's child must be started with,
/// so that TSan runs in the children as it runs in the test process: declared once for the chapters'
/// test support (which sets it in its own environment before the first exit test, plain `swift test`)
/// and the engine (which starts the test processes of `workbook check`).
///
/// Swift Testing starts each exit test's child with the parent's environment as it is at that moment
/// (`ExitTest.swift`, `handlerForEntryPoint`: "the environment could change between invocations …
/// so we need to recompute the child environment each time"), running the same executable again —
/// on macOS `swiftpm-testing-helper`, which loads the test bundle with `dlopen`. On macOS the TSan
/// runtime works only when inserted at launch, and at its start it removes itself from
/// `DYLD_INSERT_LIBRARIES` unless `strip_env=0` (compiler-rt `sanitizer_mac.cpp`, `StripEnv`;
/// `strip_env` defaults to 1 in `sanitizer_flags.inc`), so a child would load it late, with the
/// bundle, and abort ("Interceptors are not working"). Hence: the runtime's file back in
/// `DYLD_INSERT_LIBRARIES` (found in the parent with `dladdr` on a TSan symbol), and `strip_env=0`
/// for every process after it. On Linux the runtime is linked into the test executable, so a child
/// has it anyway.
package enum ChildSanitizer {
    /// Keeps TSan's runtime in `DYLD_INSERT_LIBRARIES` for the processes a process starts (Darwin).
    package static let keepRuntimeForChildren = "strip_env=0"
    /// TSan otherwise sleeps a second when a process with more than one thread exits
    /// (`atexit_sleep_ms`, 1000; compiler-rt `tsan_flags.inc`, `tsan_rtl.cpp`) — every exit test's
    /// child too.
    package static let quickExit = "atexit_sleep_ms=0"
    /// The variable through which dyld inserts a library at launch (Darwin).
    package static let insertLibraries = "DYLD_INSERT_LIBRARIES"

    /// What TSan's runtime prints before it aborts a process it was loaded into too late — with a
    /// bundle by `dlopen`, not inserted at launch (compiler-rt `sanitizer_mac.cpp`,
    /// `VerifyInterceptorsWorking`: "ERROR: Interceptors are not working. This may be because
    /// ThreadSanitizer is loaded too late (e.g. via dlopen). …").
    package static let loadedTooLate = "Interceptors are not working"

    /// What an exit test records when its child died that way: the learner's code never ran.
    package static func childLoadedTooLate(_ what: String) -> String {
        "The Thread Sanitizer could not start in the child process that runs \(what) (\(loadedTooLate): it was loaded "
            + "after the process started, not inserted at its launch), so your code never ran there. This is the "
            + "set-up, not your exercise: run `swift run workbook doctor`."
    }

    /// The variables to set so that children start with TSan as this process runs it: `environment`
    /// is this process's, `runtimePath` the TSan dylib in it (`nil` on Linux, where the runtime is
    /// linked in, or when TSan is not in the process at all). Only what changes is returned; options
    /// already given are kept, and the runtime is never inserted twice.
    package static func childEnvironment(_ environment: [String: String], runtimePath: String?) -> [String: String] {
        var changes: [String: String] = [:]
        let options = environment["TSAN_OPTIONS"] ?? ""
        var added: [String] = []
        if !options.contains("atexit_sleep_ms") { added.append(quickExit) }
        if runtimePath != nil, !options.contains("strip_env") { added.append(keepRuntimeForChildren) }
        if !added.isEmpty {
            changes["TSAN_OPTIONS"] = ([options].filter { !$0.isEmpty } + added).joined(separator: " ")
        }
        if let runtimePath {
            let inserted = (environment[insertLibraries] ?? "").split(separator: ":").map(String.init)
            let file = runtimePath.split(separator: "/").last.map(String.init) ?? runtimePath
            if !inserted.contains(where: { $0 == runtimePath || $0.hasSuffix("/" + file) }) {
                changes[insertLibraries] = (inserted + [runtimePath]).joined(separator: ":")
            }
        }
        return changes
    }
}
