// Renders a Report as JSON (schema/report.schema.json): versioned, with
// stable field names, for scripts and for other tools to import.
#ifndef GPUF_ANALYZER_RENDER_RENDER_JSON_H_
#define GPUF_ANALYZER_RENDER_RENDER_JSON_H_

#include <string>

#include "analyzer/report/report.h"

namespace gpuf {

inline constexpr int kReportJsonVersion = 1;

std::string RenderJson(const Report& report);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_JSON_H_
