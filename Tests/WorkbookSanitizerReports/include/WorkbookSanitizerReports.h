#ifndef WORKBOOK_SANITIZER_REPORTS_H
#define WORKBOOK_SANITIZER_REPORTS_H

/// Sends the sanitizer's reports to the file `path.<pid>` instead of standard error, from now on.
///
/// A wrapper of `__sanitizer_set_report_path`, part of the sanitizers' public interface
/// (compiler-rt `include/sanitizer/common_interface_defs.h`, exported by the Thread Sanitizer's
/// runtime on Linux and on Darwin). The test bundle that calls it is linked with `-sanitize=thread`.
void workbook_send_sanitizer_reports_to(const char *path);

#endif
