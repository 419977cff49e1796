#ifndef WORKBOOK_SANITIZER_REPORTS_H
#define WORKBOOK_SANITIZER_REPORTS_H

/// Sends the sanitizer's reports to the file `path.<pid>` instead of standard error, from now on;
/// nothing when the Thread Sanitizer is not in the process.
///
/// A wrapper of `__sanitizer_set_report_path`, part of the sanitizers' public interface
/// (compiler-rt `include/sanitizer/common_interface_defs.h`, exported by the Thread Sanitizer's
/// runtime on Linux and on Darwin).
void workbook_send_sanitizer_reports_to(const char *path);

/// 1 when the Thread Sanitizer's runtime is in this process, 0 when it is not (on macOS, a test
/// bundle run by plain `swift test`, without `--sanitize=thread`).
int workbook_thread_sanitizer_is_loaded(void);

/// The file of the Thread Sanitizer's runtime dylib in this process (Darwin), for the exit tests'
/// children to insert at their launch; NULL where the runtime is linked in statically (Linux) or
/// absent.
const char *workbook_thread_sanitizer_runtime_path(void);

#endif
