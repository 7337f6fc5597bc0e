// The GPU chain verdict: for each step from PCI to the Node's allocatable,
// ok, failed or unknown, with the evidence and, when unknown, what was not
// captured. The twelve-step chain of the incident write-up, minus the steps
// a node cannot see (metrics and alerting are reported as outside the node).
#ifndef GPUF_ANALYZER_CHAIN_VERDICT_H_
#define GPUF_ANALYZER_CHAIN_VERDICT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "common/status.h"

namespace gpuf {

enum class StepStatus { kOk, kFailed, kUnknown };
const char* StepStatusName(StepStatus status);  // "ok" | "failed" | "unknown"

struct ChainStep {
  std::string name;      // "PCI devices", "kernel driver", ...
  StepStatus status = StepStatus::kUnknown;
  std::string detail;    // what was seen, one line
  std::string evidence;  // the artifacts it rests on
  std::string missing;   // when unknown: what was not captured
};

// Reads the loaded, timelined bundle. Fails only when the database does.
Result<std::vector<ChainStep>> ComputeChainVerdict(Database& db, int64_t bundle_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_CHAIN_VERDICT_H_
