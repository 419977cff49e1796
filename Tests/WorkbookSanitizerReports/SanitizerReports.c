#include "WorkbookSanitizerReports.h"

#include <stddef.h>

#if defined(__APPLE__)
#include <dlfcn.h>

// On Darwin TSan's runtime is a dylib that is in the process only when it was inserted at launch
// (`swift test --sanitize=thread`, Xcode's checkbox); a test bundle built without TSan does not link
// it. So its entry points are looked up, never linked: the bundle links either way.
static void *sanitizer_symbol(const char *name) { return dlsym(RTLD_DEFAULT, name); }

int workbook_thread_sanitizer_is_loaded(void) { return sanitizer_symbol("__tsan_init") != NULL; }

const char *workbook_thread_sanitizer_runtime_path(void) {
    void *entry = sanitizer_symbol("__tsan_init");
    Dl_info info;
    if (entry == NULL || dladdr(entry, &info) == 0) return NULL;
    return info.dli_fname;
}

void workbook_send_sanitizer_reports_to(const char *path) {
    void (*set_report_path)(const char *) = (void (*)(const char *))sanitizer_symbol("__sanitizer_set_report_path");
    if (set_report_path != NULL) set_report_path(path);
}
#else
// On Linux the runtime is linked statically into the test executable (Package.swift adds
// `-sanitize=thread`); a weak reference tells whether it is there without requiring it.
extern void __tsan_init(void) __attribute__((weak));
// Declared here rather than included: the sanitizer headers ship with clang, not with every SDK.
void __sanitizer_set_report_path(const char *path) __attribute__((weak));

int workbook_thread_sanitizer_is_loaded(void) { return __tsan_init != NULL; }

const char *workbook_thread_sanitizer_runtime_path(void) { return NULL; }

void workbook_send_sanitizer_reports_to(const char *path) {
    if (__sanitizer_set_report_path != NULL) __sanitizer_set_report_path(path);
}
#endif

// What TSan checks in every test process, before TSAN_OPTIONS: the sanitizers' default-options and
// default-suppressions hooks (compiler-rt `tsan_flags.cpp`, `tsan_suppressions.cpp`; a strong
// definition in the test executable replaces the runtime's weak one on Linux, where the runtime is
// linked in statically). On Darwin they are not read: the runtime parses its flags when it starts,
// before the bundle that defines these is loaded, and a bundle's definition does not replace the
// dylib's own (two-level namespace). The grader passes the same in TSAN_OPTIONS and a suppressions
// file on every platform (Sources/WorkbookEngine/Run/SanitizerSettings.swift says why; a unit test
// keeps the two equal).
const char *__tsan_default_options(void) {
    return "ignore_interceptors_accesses=0";
}

const char *__tsan_default_suppressions(void) {
    return "race_top:interceptor_free$\nrace_top:wrap_free$\nrace_top:__sanitizer_mz_free$\n";
}
