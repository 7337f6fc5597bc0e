// `rules test`: every rule's samples, each checked for the outcome it
// expects ("fail confirmed", "warn likely", "pass", "skipped").
//
// An inline sample gets a fresh in-memory database (sample_fixture.h) and its
// rule runs alone, so `explained_by` does not apply. A bundle sample's bundle
// is loaded once, as analyze loads it (timeline included), and the whole set
// runs on it: the outcome checked is the one analyze would report.
#ifndef GPUF_ANALYZER_RULE_SAMPLES_H_
#define GPUF_ANALYZER_RULE_SAMPLES_H_

#include <string>
#include <vector>

#include "analyzer/rules/rule_loader.h"
#include "common/status.h"

namespace gpuf {

struct SampleCheck {
  std::string rule_id;
  std::string sample;    // its name
  std::string expected;  // "fail confirmed", "pass", ...
  std::string actual;    // the same form, or "error"
  std::string detail;    // the rule's reason, or what went wrong
  bool passed = false;
};

// One check per sample, in rule order. Fails only when the database does;
// a bundle that cannot be read fails the samples that name it.
Result<std::vector<SampleCheck>> RunRuleSamples(const RuleSet& set);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULE_SAMPLES_H_
