// The k8s.metrics artifact: what `kubectl gpuforensics collect --metrics`
// asked the metrics store about the node and what it answered
// (kube/metrics_capture.h writes it):
//
//   {"apiVersion":"gpuforensics.io/v1","kind":"MetricsCapture","source":"https://prom:9090",
//    "node":"gpu-7","node_label":"node","range":{"start":1733462400,"end":1733548800,"step":30},
//    "clock":{"asked_unix_ms":1733548800100,"answered_unix_ms":1733548800140,"server_unix_ms":1733548801120},
//    "handed_unix_ms":1733548800900,
//    "queries":[{"name":"allocatable","query":"kube_node_status_allocatable{...}",
//                "answer":{"status":"success","data":{"resultType":"matrix","result":[
//                  {"metric":{"resource":"nvidia_com_gpu",...},"values":[[1733548770,"8"],[1733548800,"0"]]}]}}},
//               {"name":"alerts","query":"ALERTS{...}","error":"HTTP 503: ..."}]}
//
// The store's times are on its own clock. The node's is measured from two
// stamps of the plugin's clock: the server's time() read between two of
// them, and collect's stamp on reading the capture (the artifact's start)
// against the plugin's when it handed it over. Samples are given on the
// node's clock when both were taken; otherwise as the store gave them,
// with a warning.
#ifndef GPUF_FORMATS_METRIC_SERIES_H_
#define GPUF_FORMATS_METRIC_SERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct MetricSample {
  int64_t time_ns = 0;  // Unix ns, on the node's clock where it could be measured
  double value = 0;
};

struct MetricSeries {
  std::string query;       // the query's name: "allocatable", "capacity", "plugin_restarts", "alerts"
  std::string metric;      // __name__: "kube_node_status_allocatable", "ALERTS"; "" when the answer has none
  std::string resource;    // label resource: "nvidia_com_gpu"; "" when none
  std::string alertname;   // ALERTS' labels; "" when none
  std::string alertstate;  // "firing" | "pending"
  std::string pod;         // plugin_restarts: the pod
  std::string labels;      // every label as the answer gave them, JSON
  std::vector<MetricSample> samples;
};

struct MetricQuery {
  std::string name;
  std::string query;  // the PromQL asked
  std::string error;  // why there is no answer; "" when there is one
  int64_t series = 0;
};

struct MetricsCapture {
  std::string source;  // where the plugin asked
  std::string node;
  std::string node_label;
  std::optional<int64_t> start_ns, end_ns;  // the range asked, on the node's clock where measured
  int64_t step_s = 0;
  // The node's clock minus the store's; nullopt when not measured.
  std::optional<int64_t> clock_offset_ns;
  std::vector<MetricQuery> queries;
  std::vector<MetricSeries> series;
  std::vector<ParseWarning> warnings;
};

// `read_at_ns`: collect's stamp on reading the capture (the artifact's
// started_at_unix_ns), 0 when unknown. A document that is not a
// MetricsCapture gives no queries and one warning; a damaged series or
// sample is skipped with a warning and the rest is read.
MetricsCapture ParseMetricsCapture(std::string_view text, int64_t read_at_ns);

}  // namespace gpuf

#endif  // GPUF_FORMATS_METRIC_SERIES_H_
