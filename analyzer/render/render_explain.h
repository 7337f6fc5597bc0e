// `analyze --explain RULE`: why one rule did or did not fire, from what the
// engine recorded while it decided (analyzer/rules/explanation.h).
#ifndef GPUF_ANALYZER_RENDER_RENDER_EXPLAIN_H_
#define GPUF_ANALYZER_RENDER_RENDER_EXPLAIN_H_

#include <string>

#include "analyzer/rules/rule_run_summary.h"
#include "common/status.h"

namespace gpuf {

// NotFound (with the nearest ids) when no rule has that id.
Result<std::string> RenderExplanation(const RuleRunSummary& summary, const std::string& rule_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_EXPLAIN_H_
