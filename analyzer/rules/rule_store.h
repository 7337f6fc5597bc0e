// Writing what the rules decided into the database: rule_runs for every rule,
// findings with their finding_evidence and finding_missing rows for those
// that failed or warned, and the diagnosis (diagnoses, diagnosis_against,
// diagnosis_evidence) over those and the ruled-out candidates. A second run
// on the same bundle replaces the first.
#ifndef GPUF_ANALYZER_RULES_RULE_STORE_H_
#define GPUF_ANALYZER_RULES_RULE_STORE_H_

#include <cstdint>

#include "analyzer/database.h"
#include "analyzer/rules/rule_engine.h"
#include "common/status.h"

namespace gpuf {

// Sets each finding's finding_id. Fails when the database does.
Status StoreRuleResults(Database& db, int64_t bundle_id, RuleRunSummary& summary);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_STORE_H_
