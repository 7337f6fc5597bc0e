// Turns an inline rule sample into a loaded bundle, written by the loader's
// own writers (member_loaders.h): one bundles row, an artifact for every
// name the sample mentions (usable unless `artifacts` gives another
// status), its log lines as the loader stores them, and its rows as
// written.
//
//   journal.*            journal_entries, classified as the loader does
//                        (systemd events for PID 1, kubelet device-plugin
//                        events), identifier and unit by artifact name unless
//                        the line says otherwise; instance "boot:0" by default
//   plugin.log*, plugin.crictl_logs*
//                        log_lines (klog or Go-log header taken off, plugin
//                        event classified) and the raw line in artifact_lines
//   anything else        artifact_lines
//
// Rows: "artifact: NAME[INSTANCE]" stands for that artifact's id, "@T" in a
// column ending in _ns or _us for a sample time, and bundle_id is filled in
// when the table has one.
#ifndef GPUF_ANALYZER_RULES_SAMPLE_FIXTURE_H_
#define GPUF_ANALYZER_RULES_SAMPLE_FIXTURE_H_

#include <cstdint>

#include "analyzer/database.h"
#include "analyzer/rules/rule.h"
#include "common/status.h"

namespace gpuf {

// The bundle id. BadInput when a row does not fit the schema, with *where
// set to the row; other failures are the database's.
Result<int64_t> BuildSampleBundle(Database& db, const RuleSample& sample, YamlMark* where);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SAMPLE_FIXTURE_H_
