#include "WorkbookSanitizerReports.h"

// Declared here rather than included: the sanitizer headers ship with clang, not with every SDK.
void __sanitizer_set_report_path(const char *path);

void workbook_send_sanitizer_reports_to(const char *path) {
    __sanitizer_set_report_path(path);
}

// What TSan checks in every test process, before TSAN_OPTIONS: the sanitizers' default-options and
// default-suppressions hooks (compiler-rt `tsan_flags.cpp`, `tsan_suppressions.cpp`; a strong
// definition in the test executable replaces the runtime's weak one on Linux, where the runtime is
// linked in statically). The grader passes the same in TSAN_OPTIONS and a suppressions file
// (Sources/WorkbookKit/Run/SanitizerSettings.swift says why; a unit test keeps the two equal).
const char *__tsan_default_options(void) {
    return "ignore_interceptors_accesses=0";
}

const char *__tsan_default_suppressions(void) {
    return "race_top:interceptor_free$\nrace_top:wrap_free$\n";
}
