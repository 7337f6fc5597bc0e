#include "kube/metrics_capture.h"

#include <map>
#include <string>

#include <doctest/doctest.h>

#include "common/time_format.h"

namespace gpuf {

namespace {

// A store that answers from a table keyed by the path's start; what it
// does not know it refuses as Prometheus' HTTP API would.
class CannedStore : public MetricsFetcher {
 public:
  std::map<std::string, std::string> answers;  // path prefix -> body
  mutable std::vector<std::string> asked;

  Result<std::string> Get(const std::string& path, int64_t, const std::atomic<bool>*) const override {
    asked.push_back(path);
    for (const auto& [prefix, body] : answers) {
      if (path.rfind(prefix, 0) == 0) return body;
    }
    return Status::IoError("HTTP 503: service unavailable");
  }
  std::string Source() const override { return "https://prom.example:9090"; }
};

constexpr char kTime[] = R"({"status":"success","data":{"resultType":"scalar","result":[1763435901.55,"1763435901.55"]}})";
constexpr char kMatrix[] = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

}  // namespace

TEST_SUITE("metrics_capture") {

TEST_CASE("CaptureMetrics: the server's clock, the range ending at it, and each query with its answer") {
  CannedStore store;
  store.answers = {{"/api/v1/query?", kTime}, {"/api/v1/query_range?query=kube_node", kMatrix},
                   {"/api/v1/query_range?query=ALERTS", R"({"status":"error","errorType":"bad_data","error":"x"})"}};
  MetricsPlan plan{.fetcher = &store, .window_s = 3600, .node_label = "node"};
  MetricsOutcome out = CaptureMetrics(plan, "gpu-7", MonotonicNowNs() + 10'000'000'000, nullptr);
  const nlohmann::json& doc = out.document;
  CHECK(doc["kind"] == "MetricsCapture");
  CHECK(doc["source"] == "https://prom.example:9090");
  CHECK(doc["clock"]["server_unix_ms"] == 1763435901550);
  CHECK(doc["range"] == nlohmann::json::parse(R"({"start":1763432301,"end":1763435901,"step":30})"));
  REQUIRE(doc["queries"].size() == 4);
  CHECK(doc["queries"][0]["answer"] == nlohmann::json::parse(kMatrix));
  CHECK(doc["queries"][2]["error"] == "HTTP 503: service unavailable");  // plugin_restarts: kube_pod_...
  CHECK(doc["queries"][3]["error"] == "the server refused the query: bad_data: x");
  CHECK(out.problem == "from https://prom.example:9090 incomplete: plugin_restarts: HTTP 503: service unavailable; "
                       "alerts: the server refused the query: bad_data: x");
  CHECK(store.asked.size() == 5);
}

TEST_CASE("CaptureMetrics: garbage, no time(), and answers nested past any real one are kept as errors, not built") {
  CannedStore store;
  store.answers = {{"/api/v1/query?", "<html>502 Bad Gateway</html>"},
                   {"/api/v1/query_range", std::string(100000, '[') + std::string(100000, ']')}};
  MetricsPlan plan{.fetcher = &store, .window_s = 3600, .node_label = "node"};
  MetricsOutcome out = CaptureMetrics(plan, "gpu-7", MonotonicNowNs() + 10'000'000'000, nullptr);
  CHECK(out.document["clock"]["error"] == "not a query API answer: <html>502 Bad Gateway</html>");
  // A store that does not answer time() is asked nothing else.
  CHECK(store.asked.size() == 1);
  CHECK(out.document["queries"][0]["error"] ==
        "not asked: time() failed: not a query API answer: <html>502 Bad Gateway</html>");
  CHECK(out.problem == "from https://prom.example:9090 incomplete: time(): not a query API answer: <html>502 Bad "
                       "Gateway</html>; nothing else asked");
  store.answers = {{"/api/v1/query?", kTime},
                   {"/api/v1/query_range", std::string(100000, '[') + std::string(100000, ']')}};
  out = CaptureMetrics(plan, "gpu-7", MonotonicNowNs() + 10'000'000'000, nullptr);
  CHECK(out.document["queries"][0]["error"] == "not a query API answer: nested deeper than 64 levels");
}

}  // TEST_SUITE

}  // namespace gpuf
