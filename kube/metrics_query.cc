#include "kube/metrics_query.h"

#include <algorithm>
#include <cstdio>

#include "common/text_lines.h"

namespace gpuf {

namespace {

constexpr int64_t kMaxWindowS = 7 * 86400;

// The GPU resources are matched by name, so that MIG profiles and shared
// replicas come without knowing them in advance.
constexpr MetricsQueryRow kQueries[] = {
    {.name = "allocatable", .promql = R"(kube_node_status_allocatable{{label}="{node}",resource=~"nvidia_com_.*"})"},
    {.name = "capacity", .promql = R"(kube_node_status_capacity{{label}="{node}",resource=~"nvidia_com_.*"})"},
    // kube_pod_container_status_restarts_total has no node label; kube_pod_info
    // says which pods run on the node.
    {.name = "plugin_restarts",
     .promql = R"(kube_pod_container_status_restarts_total{pod=~".*device-plugin.*"})"
               R"( * on(namespace, pod) group_left() kube_pod_info{{label}="{node}"})"},
    {.name = "alerts", .promql = R"(ALERTS{{label}="{node}"})"},
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A PromQL double-quoted string's content.
std::string QuotedContent(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::span<const MetricsQueryRow> MetricsQueries() { return kQueries; }

std::string MetricsPromql(const MetricsQueryRow& row, std::string_view node_label, std::string_view node) {
  return ReplaceAll(ReplaceAll(std::string(row.promql), "{label}", node_label), "{node}", QuotedContent(node));
}

MetricsRange RangeEndingAt(int64_t end_unix_s, int64_t window_s) {
  MetricsRange range;
  range.end_unix_s = end_unix_s;
  range.start_unix_s = end_unix_s - window_s;
  range.step_s = std::max(kMinMetricsStepS, (window_s + kMaxMetricsPoints - 1) / kMaxMetricsPoints);
  return range;
}

std::string RangeQueryPath(std::string_view promql, const MetricsRange& range) {
  return "/api/v1/query_range?query=" + PercentEncode(promql) + "&start=" + std::to_string(range.start_unix_s) +
         "&end=" + std::to_string(range.end_unix_s) + "&step=" + std::to_string(range.step_s);
}

std::string ServerTimePath() { return "/api/v1/query?query=" + PercentEncode("time()"); }

Result<int64_t> ParseWindowSeconds(std::string_view text) {
  const auto bad = [given = std::string(text)] {
    return Status::InvalidArgument("--metrics-window '" + given +
                                   "' is not a duration of at most 7 days (24h, 90m, 3600s, 2d)");
  };
  if (text.empty() || text.size() > 12) return bad();
  const std::string_view units = "smhd";
  constexpr int64_t kUnitSeconds[] = {1, 60, 3600, 86400};
  int64_t unit = 1;
  if (size_t at = units.find(text.back()); at != std::string_view::npos) {
    unit = kUnitSeconds[at];
    text.remove_suffix(1);
  }
  if (text.empty()) return bad();
  int64_t count = 0;
  for (char c : text) {
    if (!IsDigit(c)) return bad();
    count = count * 10 + (c - '0');
  }
  if (count == 0 || count * unit > kMaxWindowS) return bad();
  return count * unit;
}

Status CheckLabelName(std::string_view label) {
  bool ok = !label.empty() && !IsDigit(label.front());
  for (char c : label) ok = ok && (IsLetter(c) || IsDigit(c) || c == '_');
  if (!ok) {
    return Status::InvalidArgument("--metrics-node-label '" + std::string(label) +
                                   "' is not a label name ([a-zA-Z_][a-zA-Z0-9_]*)");
  }
  return Status::Ok();
}

std::string PercentEncode(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (IsLetter(c) || IsDigit(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  return out;
}

}  // namespace gpuf
