// One node's record in the metrics store, as the plugin hands it to collect
// beside the Node (an item of the v1 List on collect's stdin), which
// stores it as the k8s.metrics artifact:
//
//   {"apiVersion":"gpuforensics.io/v1","kind":"MetricsCapture",
//    "source":"https://prometheus.example:9090","node":"gpu-7","node_label":"node",
//    "range":{"start":1733462400,"end":1733548800,"step":30},
//    "clock":{"asked_unix_ms":...,"answered_unix_ms":...,"server_unix_ms":...},
//    "handed_unix_ms":...,
//    "queries":[{"name":"allocatable","query":"kube_node_status_allocatable{...}",
//                "answer":{"status":"success","data":{...}}},
//               {"name":"alerts","query":"ALERTS{...}","error":"HTTP 503: ..."}]}
//
// Each query keeps the server's answer as it came (when it is JSON) or
// why there is none; the clock is the server's time() read between two
// readings of the plugin's clock, and handed_unix_ms the plugin's clock
// when it gave the document to collect, whose own stamp on reading it
// says how far the node's clock is from the plugin's. No credential is
// ever in it.
#ifndef GPUF_KUBE_METRICS_CAPTURE_H_
#define GPUF_KUBE_METRICS_CAPTURE_H_

#include <atomic>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "kube/metrics_fetch.h"

namespace gpuf {

struct MetricsPlan {
  const MetricsFetcher* fetcher = nullptr;  // nullptr: no metrics asked for
  int64_t window_s = 86400;
  std::string node_label = "node";
};

struct MetricsOutcome {
  nlohmann::json document;  // the MetricsCapture
  std::string problem;      // "from SOURCE incomplete: alerts: HTTP 503: ..."; "" when every query was answered
};

// Asks the server's time, then every query of MetricsQueries() for `node`
// over the window ending at the server's now; each query gets its own
// timeout within `deadline_ns`. A query that fails is kept with its error
// and the others are still asked; when time() fails, none is.
MetricsOutcome CaptureMetrics(const MetricsPlan& plan, const std::string& node, int64_t deadline_ns,
                              const std::atomic<bool>* interrupt);

}  // namespace gpuf

#endif  // GPUF_KUBE_METRICS_CAPTURE_H_
