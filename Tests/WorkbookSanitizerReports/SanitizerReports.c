#include "WorkbookSanitizerReports.h"

// Declared here rather than included: the sanitizer headers ship with clang, not with every SDK.
void __sanitizer_set_report_path(const char *path);

void workbook_send_sanitizer_reports_to(const char *path) {
    __sanitizer_set_report_path(path);
}
