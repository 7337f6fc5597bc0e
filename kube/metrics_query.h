// What `kubectl gpuforensics collect --metrics` asks a Prometheus-compatible
// query API (Prometheus, VictoriaMetrics, Thanos, Mimir) about one node,
// and how: the queries as a table, each a range query over the window
// before the capture, so that the report can say when the node's GPU count
// dropped and whether an alert fired:
//
//   GET /api/v1/query_range?query=kube_node_status_allocatable%7Bnode%3D%22gpu-7%22...&start=...&end=...&step=30
//   {"status":"success","data":{"resultType":"matrix","result":[{"metric":{"resource":"nvidia_com_gpu",...},
//    "values":[[1733548800,"8"],[1733548830,"0"],...]}]}}
//
// Pure: no I/O. metrics_fetch.h sends the requests, metrics_capture.h
// writes what came back.
#ifndef GPUF_KUBE_METRICS_QUERY_H_
#define GPUF_KUBE_METRICS_QUERY_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

struct MetricsQueryRow {
  std::string_view name;    // how the analyzer knows the answer: "allocatable", "capacity", ...
  std::string_view promql;  // {label} and {node} are filled in
};

// allocatable and capacity of every NVIDIA resource (kube-state-metrics
// writes nvidia.com/gpu as resource="nvidia_com_gpu", MIG and shared
// resources alike), the device plugin pod's restarts, and the alerts
// naming the node.
std::span<const MetricsQueryRow> MetricsQueries();

// The row's PromQL for `node`, whose label is `node_label` (kube-state-
// metrics writes `node`; a relabelled store may call it otherwise).
std::string MetricsPromql(const MetricsQueryRow& row, std::string_view node_label, std::string_view node);

// The range of a capture: `window_s` up to `end_unix_s`, one point every
// step_s, never more than kMaxMetricsPoints per series.
inline constexpr int64_t kMaxMetricsPoints = 2880;
inline constexpr int64_t kMinMetricsStepS = 30;  // kube-state-metrics is scraped every 30 s or so
struct MetricsRange {
  int64_t start_unix_s = 0;
  int64_t end_unix_s = 0;
  int64_t step_s = kMinMetricsStepS;
};
MetricsRange RangeEndingAt(int64_t end_unix_s, int64_t window_s);

// The path and query string of the range query, or of the instant query
// of time() that reads the server's clock.
std::string RangeQueryPath(std::string_view promql, const MetricsRange& range);
std::string ServerTimePath();

// Reads a duration as --metrics-window takes it: "24h", "90m", "3600s",
// "7d", or bare seconds. Fails with InvalidArgument on anything else, on
// zero, and on more than 7 days.
Result<int64_t> ParseWindowSeconds(std::string_view text);

// Checks --metrics-node-label: a Prometheus label name.
Status CheckLabelName(std::string_view label);

// Percent-encodes everything but RFC 3986's unreserved characters.
std::string PercentEncode(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_KUBE_METRICS_QUERY_H_
