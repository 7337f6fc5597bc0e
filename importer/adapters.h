// One adapter per kind of input: each maps that tool's layout onto our
// logical artifacts (importer/artifact_map.cc holds the tables) and returns
// the plan a bundle is written from. Adapters never fail on what they do not
// recognise: it is left out, and CannotShow says what the kind never holds.
#ifndef GPUF_IMPORTER_ADAPTERS_H_
#define GPUF_IMPORTER_ADAPTERS_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "importer/import_plan.h"
#include "importer/source_tree.h"

namespace gpuf {

// sos report (`sos report`, sosreport-*.tar.xz or its unpacked directory).
bool SosWants(std::string_view path);
ImportPlan ImportSosReport(const SourceTree& tree, const std::string& source_name);

// nvidia-bug-report.log: one text of sections. `fallback_ns` (the file's
// mtime) dates the capture when the log does not.
ImportPlan ImportBugReport(std::string_view log, const std::string& source_name, int64_t fallback_ns);

// GPU Operator must-gather directory (hack/must-gather.sh's ARTIFACT_DIR).
bool MustGatherWants(std::string_view path);
Result<ImportPlan> ImportMustGather(const SourceTree& tree, const std::string& source_name,
                                    const SourceLimits& limits);

// A folder of command outputs saved by hand, recognised by content.
ImportPlan ImportEvidenceDir(const SourceTree& tree, const std::string& source_name);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_ADAPTERS_H_
