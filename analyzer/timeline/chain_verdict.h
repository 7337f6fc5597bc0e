// The GPU chain verdict of a loaded bundle: for each step from PCI to the
// Node's allocatable, ok, failed or unknown, with the evidence and, when
// unknown, what was not captured. The facts come from the database; the
// rules that judge them are chain/chain_steps.h, which the collector's
// triage and `watch` use too. The twelve-step chain of the incident
// write-up; its last three (kube-state-metrics, the metrics store,
// alerting) only from what the kubectl plugin read of the metrics store.
#ifndef GPUF_ANALYZER_TIMELINE_CHAIN_VERDICT_H_
#define GPUF_ANALYZER_TIMELINE_CHAIN_VERDICT_H_

#include <cstdint>
#include <vector>

#include "analyzer/database.h"
#include "chain/chain_steps.h"
#include "common/status.h"

namespace gpuf {

// The facts of the loaded, timelined bundle, as JudgeChain reads them.
// Fails only when the database does.
Result<ChainFacts> ReadChainFacts(Database& db, int64_t bundle_id);

// JudgeChain(ReadChainFacts(...)).
Result<std::vector<ChainStep>> ComputeChainVerdict(Database& db, int64_t bundle_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_CHAIN_VERDICT_H_
