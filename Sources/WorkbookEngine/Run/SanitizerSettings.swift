import Foundation
import WorkbookCore

/// What TSan checks in every test process the workbook starts, on every platform — the same as the
/// test executable's own defaults (`Tests/WorkbookSanitizerReports/SanitizerReports.c`, its
/// `__tsan_default_options` and `__tsan_default_suppressions`), which plain `swift test` starts with.
///
/// The blind spot they close (Exercises/MEASUREMENTS.md, M16): the toolchain's TSan ignores every
/// access made inside one of its interceptors, and at -Onone a closure that returns a stored
/// property through a generic result — `queue.sync { x }` — copies it with a `memcpy` that TSan
/// checks in its interceptor. Such a read was never compared with anything, so a writer under
/// another lock, or none, went unseen.
enum SanitizerSettings {
    /// Accesses made inside TSan's interceptors are checked too (compiler-rt's
    /// `ignore_interceptors_accesses`, on by default in the toolchain's TSan).
    static let options = "ignore_interceptors_accesses=0"

    /// With that, TSan also reports the release of a block's or closure's context in `free` against
    /// the block's last read of it on another thread: the Swift runtime's reference count, which
    /// orders the two, is not instrumented. Every such report has the `free` interceptor as the top
    /// frame of one access (measured: every solution's suite, 338 of them in one run, no other
    /// shape); `race_top` matches only that frame. Interceptors are `___interceptor_free` on Linux
    /// and `wrap_free` on Darwin (sanitizer_common's interception macros); on Darwin a free can also
    /// arrive through the malloc zone TSan registers in place of the system's, whose `free` entry is
    /// `__sanitizer_mz_free` (`sanitizer_malloc_mac.inc`). Darwin's two are read from source, not
    /// measured.
    static let suppressions = ["race_top:interceptor_free$", "race_top:wrap_free$", "race_top:__sanitizer_mz_free$"]

    /// `name="path"`: TSan's option parser ends an unquoted value at a space, comma or colon
    /// (sanitizer_common `sanitizer_flag_parser.cpp`, `is_space`), and takes a value in quotes whole —
    /// an Xcode installed as "Xcode 26.4.app" has a space in every path of its toolchain.
    static func option(_ name: String, path: String) -> String { "\(name)=\"\(path)\"" }

    /// The suppressions as TSan reads them from a file (`suppressions=<path>`), one per line.
    static var suppressionsFile: String { suppressions.map { $0 + "\n" }.joined() }

    /// The suppressions' file in a run's folder.
    static func suppressionsPath(in folder: URL) -> URL { folder.appendingPathComponent("tsan-suppressions.txt") }
}
