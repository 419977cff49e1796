#include "WorkbookSanitizerReports.h"

// Declared here rather than included: the sanitizer headers ship with clang, not with every SDK.
void __sanitizer_set_report_path(const char *path);

void workbook_send_sanitizer_reports_to(const char *path) {
    __sanitizer_set_report_path(path);
}

// The options every test process of the workbook starts with, before TSAN_OPTIONS (the sanitizers'
// `__tsan_default_options` hook, compiler-rt `tsan_flags.cpp`; a strong definition in the test
// executable replaces the runtime's weak one on Linux, where the runtime is linked in statically).
//
// ignore_interceptors_accesses=0: the Swift toolchain's TSan ignores every access made inside an
// interceptor, and at -Onone a closure that returns a stored property through a generic result
// (`queue.sync { x }`, `DispatchQueue.global().sync { x }`) copies it with `memcpy`, which TSan
// checks in its memcpy interceptor — so such a read was never compared with an unguarded write
// (measured, Linux x86-64, Swift 6.3.1: 0 reports in 3 runs; with this option, 3 in 3). The grader
// passes the same option in TSAN_OPTIONS (`LaunchedTestProcess.sanitizerOptions`), on every platform.
const char *__tsan_default_options(void) {
    return "ignore_interceptors_accesses=0";
}
