#include "kube/metrics_capture.h"

#include <algorithm>
#include <cmath>

#include "common/json_depth.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "kube/metrics_query.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kQueryTimeoutNs = 20'000'000'000;

std::string StringField(const nlohmann::json& doc, const char* key) {
  auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

// The answer as JSON, or why it is not one the analyzer can read.
Result<nlohmann::json> Answer(const Result<std::string>& body) {
  if (!body.ok()) return body.status();
  if (JsonNestingDepth(*body) > kMaxJsonDepth) {
    return Status::IoError("not a query API answer: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  auto doc = nlohmann::json::parse(*body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("status")) {
    return Status::IoError("not a query API answer: " + FirstLine(body->substr(0, 120)));
  }
  if (StringField(doc, "status") != "success") {
    const std::string type = StringField(doc, "errorType");
    const std::string error = StringField(doc, "error");
    return Status::IoError("the server refused the query: " + type + (type.empty() ? "" : ": ") + error);
  }
  return doc;
}

// The server's time() in ms, read between two readings of ours.
nlohmann::json ReadClock(const MetricsPlan& plan, int64_t deadline_ns, const std::atomic<bool>* interrupt) {
  nlohmann::json clock;
  clock["asked_unix_ms"] = WallClockNowNs() / kNsPerMs;
  auto answer = Answer(plan.fetcher->Get(ServerTimePath(), deadline_ns, interrupt));
  clock["answered_unix_ms"] = WallClockNowNs() / kNsPerMs;
  // Prometheus: {"status":"success","data":{"resultType":"scalar","result":[1733548800.123,"1733548800.123"]}}
  // VictoriaMetrics:
  // {"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1733548800,"..."]}]}}
  const nlohmann::json::json_pointer scalar("/data/result/0"), vector("/data/result/0/value/0");
  const nlohmann::json* at = nullptr;
  if (answer.ok() && answer->contains(scalar) && answer->at(scalar).is_number()) at = &answer->at(scalar);
  if (answer.ok() && answer->contains(vector) && answer->at(vector).is_number()) at = &answer->at(vector);
  if (at) {
    clock["server_unix_ms"] = std::llround(at->get<double>() * 1000);
  } else {
    clock["error"] = answer.ok() ? "time() gave no number" : answer.status().message();
  }
  return clock;
}

}  // namespace

MetricsOutcome CaptureMetrics(const MetricsPlan& plan, const std::string& node, int64_t deadline_ns,
                              const std::atomic<bool>* interrupt) {
  MetricsOutcome outcome;
  nlohmann::json& doc = outcome.document;
  doc["apiVersion"] = "gpuforensics.io/v1";
  doc["kind"] = "MetricsCapture";
  doc["source"] = plan.fetcher->Source();
  doc["node"] = node;
  doc["node_label"] = plan.node_label;
  const auto query_deadline = [&] { return std::min(deadline_ns, MonotonicNowNs() + kQueryTimeoutNs); };
  doc["clock"] = ReadClock(plan, query_deadline(), interrupt);
  const int64_t now_ms = doc["clock"].value("server_unix_ms", doc["clock"]["answered_unix_ms"].get<int64_t>());
  const MetricsRange range = RangeEndingAt(now_ms / 1000, plan.window_s);
  doc["range"] = {{"start", range.start_unix_s}, {"end", range.end_unix_s}, {"step", range.step_s}};
  doc["queries"] = nlohmann::json::array();
  std::vector<std::string> failed;
  // A store that does not answer time() answers nothing else: one timeout,
  // not one per query, before the node is collected.
  const bool unreachable = doc["clock"].contains("error");
  for (const MetricsQueryRow& row : MetricsQueries()) {
    nlohmann::json entry = {{"name", row.name}, {"query", MetricsPromql(row, plan.node_label, node)}};
    if (unreachable) {
      entry["error"] = "not asked: time() failed: " + doc["clock"]["error"].get<std::string>();
      doc["queries"].push_back(std::move(entry));
      continue;
    }
    auto answer = Answer(
        plan.fetcher->Get(RangeQueryPath(entry["query"].get<std::string>(), range), query_deadline(), interrupt));
    if (answer.ok()) {
      entry["answer"] = std::move(*answer);
    } else {
      entry["error"] = answer.status().message();
      failed.push_back(std::string(row.name) + ": " + answer.status().message());
    }
    doc["queries"].push_back(std::move(entry));
  }
  if (unreachable) {
    failed.insert(failed.begin(), "time(): " + doc["clock"]["error"].get<std::string>() + "; nothing else asked");
  }
  if (!failed.empty()) outcome.problem = "from " + plan.fetcher->Source() + " incomplete: " + Join(failed, "; ");
  return outcome;
}

}  // namespace gpuf
