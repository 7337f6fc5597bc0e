// Computes the Report (report.h) of one analysed bundle from the database:
// its identity and integrity, the chain verdict, the findings and
// diagnosis, the timeline's milestones and intervals, coverage, and the
// next safe step with this node's own commands.
#ifndef GPUF_ANALYZER_REPORT_BUILD_REPORT_H_
#define GPUF_ANALYZER_REPORT_BUILD_REPORT_H_

#include <string>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/report/report.h"
#include "common/status.h"

namespace gpuf {

Result<Report> BuildReport(Database& db, const Analysis& analysis, const std::string& bundle_path);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_BUILD_REPORT_H_
