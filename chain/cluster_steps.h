// Steps 10 to 12 of the chain, outside the node: kube-state-metrics turns
// the Node's allocatable into kube_node_status_allocatable, the metrics
// store keeps the series (and so when the count dropped), and an alert
// fires on it. Judged from ChainFacts::Metrics, what `kubectl gpuforensics
// collect --metrics` read; each is unknown without that capture, never
// failed for lack of it.
#ifndef GPUF_CHAIN_CLUSTER_STEPS_H_
#define GPUF_CHAIN_CLUSTER_STEPS_H_

#include <cstdint>
#include <string>

#include "chain/chain_steps.h"

namespace gpuf {

// The newest sample must be this recent for the series to be live: a
// scrape every 30 s to 1 min, and a few missed ones.
inline constexpr int64_t kStaleSeriesNs = 10LL * 60 * 1'000'000'000;
// A drop that lasted this long and no alert: longer than any usual `for:`.
inline constexpr int64_t kAlertExpectedWithinNs = 15LL * 60 * 1'000'000'000;

ChainStep KubeStateMetricsStep(const ChainFacts& facts);
ChainStep MetricsStoreStep(const ChainFacts& facts);
ChainStep AlertingStep(const ChainFacts& facts);

// "42 s", "5 min 3 s", "2 h 5 min": how long, for people.
std::string SpanText(int64_t ns);

}  // namespace gpuf

#endif  // GPUF_CHAIN_CLUSTER_STEPS_H_
