#include "formats/metric_series.h"

#include <doctest/doctest.h>

#include <string>

namespace gpuf {

namespace {

// As kube/metrics_capture.cc writes it around a Prometheus 2.42 answer; the
// store's clock is 1.5 s ahead of the plugin's, the node's 2 s behind it.
constexpr char kCapture[] = R"({"apiVersion":"gpuforensics.io/v1","kind":"MetricsCapture",
 "source":"https://prometheus.example:9090","node":"gpu-7","node_label":"node",
 "clock":{"asked_unix_ms":1763435900000,"answered_unix_ms":1763435900100,"server_unix_ms":1763435901550},
 "range":{"start":1763349500,"end":1763435901,"step":30},
 "queries":[
  {"name":"allocatable","query":"kube_node_status_allocatable{node=\"gpu-7\",resource=~\"nvidia_com_.*\"}",
   "answer":{"status":"success","data":{"resultType":"matrix","result":[
    {"metric":{"__name__":"kube_node_status_allocatable","node":"gpu-7","resource":"nvidia_com_gpu","unit":"integer"},
     "values":[[1763435840,"8"],[1763435870,"0"],[1763435900.5,"NaN"]]}]}}},
  {"name":"capacity","query":"kube_node_status_capacity{...}","answer":{"status":"success","data":{"resultType":"matrix","result":[]}}},
  {"name":"alerts","query":"ALERTS{node=\"gpu-7\"}","answer":{"status":"success","data":{"resultType":"matrix","result":[
    {"metric":{"__name__":"ALERTS","alertname":"GPUUnschedulable","alertstate":"firing","node":"gpu-7","severity":"critical"},
     "values":[[1763435900,"1"],["x","1"],[1763435930]]}]}}},
  {"name":"plugin_restarts","query":"kube_pod_container_status_restarts_total...","error":"HTTP 503: unavailable"}],
 "handed_unix_ms":1763435900500})";

constexpr int64_t kReadAtNs = 1763435898'500'000'000;  // the node, 2 s behind the plugin's 1763435900.5

}  // namespace

TEST_SUITE("metric_series") {
  TEST_CASE("ParseMetricsCapture: each query, its series on the node's clock, and what failed") {
    MetricsCapture c = ParseMetricsCapture(kCapture, kReadAtNs);
    CHECK(c.source == "https://prometheus.example:9090");
    CHECK(c.node == "gpu-7");
    CHECK(c.node_label == "node");
    // node - store = (node - plugin) - (store - plugin) = -2 s - 1.5 s.
    REQUIRE(c.clock_offset_ns);
    CHECK(*c.clock_offset_ns == -3'500'000'000);
    CHECK(*c.end_ns == 1763435901'000'000'000 - 3'500'000'000);
    CHECK(c.step_s == 30);
    REQUIRE(c.queries.size() == 4);
    CHECK(c.queries[0].name == "allocatable");
    CHECK(c.queries[0].series == 1);
    CHECK(c.queries[0].error.empty());
    CHECK(c.queries[1].series == 0);
    CHECK(c.queries[3].name == "plugin_restarts");
    CHECK(c.queries[3].error == "HTTP 503: unavailable");
    REQUIRE(c.series.size() == 2);
    const MetricSeries& allocatable = c.series[0];
    CHECK(allocatable.metric == "kube_node_status_allocatable");
    CHECK(allocatable.resource == "nvidia_com_gpu");
    REQUIRE(allocatable.samples.size() == 3);
    CHECK(allocatable.samples[0].time_ns == 1763435840'000'000'000 - 3'500'000'000);
    CHECK(allocatable.samples[0].value == 8);
    CHECK(allocatable.samples[1].value == 0);
    CHECK(allocatable.samples[2].time_ns == 1763435900'500'000'000 - 3'500'000'000);
    CHECK(allocatable.samples[2].value != allocatable.samples[2].value);  // NaN
    const MetricSeries& alert = c.series[1];
    CHECK(alert.alertname == "GPUUnschedulable");
    CHECK(alert.alertstate == "firing");
    CHECK(
        alert.labels ==
        R"({"__name__":"ALERTS","alertname":"GPUUnschedulable","alertstate":"firing","node":"gpu-7","severity":"critical"})");
    CHECK(alert.samples.size() == 1);
    REQUIRE(c.warnings.size() == 1);
    CHECK(c.warnings[0].message == "alerts: 2 samples that are not [time, \"value\"]");
  }

  TEST_CASE("ParseMetricsCapture: without collect's stamp the store's times stay as they are, said so") {
    MetricsCapture c = ParseMetricsCapture(kCapture, 0);
    CHECK_FALSE(c.clock_offset_ns);
    CHECK(c.series[0].samples[0].time_ns == 1763435840'000'000'000);
    REQUIRE_FALSE(c.warnings.empty());
    CHECK(c.warnings[0].message ==
          "the store's clock was not measured against the node's: its times are taken as they are");
  }

  TEST_CASE("ParseMetricsCapture: what is not a MetricsCapture gives nothing and one warning") {
    for (const char* text :
         {"", "[]", "{\"kind\":\"EventList\"}", "\xff\xfe", "{\"kind\":\"MetricsCapture\",\"queries\":7}"}) {
      MetricsCapture c = ParseMetricsCapture(text, kReadAtNs);
      CHECK(c.queries.empty());
      CHECK(c.series.empty());
      CHECK_FALSE(c.warnings.empty());
    }
    // Nested past any real answer: refused before it is built.
  MetricsCapture deep = ParseMetricsCapture(std::string(100000, '[') + std::string(100000, ']'), kReadAtNs);
  REQUIRE(deep.warnings.size() == 1);
  CHECK(deep.warnings[0].message == "nested deeper than 64 levels: not read");
  // Damaged parts are skipped, the rest read.
    MetricsCapture c = ParseMetricsCapture(
        R"({"kind":"MetricsCapture","queries":[{"query":"x"},{"name":"alerts","answer":{"data":{"result":[7,{"metric":{},"values":[]}]}}},{"name":"capacity"}]})",
        kReadAtNs);
    REQUIRE(c.queries.size() == 2);
    CHECK(c.queries[0].series == 1);
    CHECK(c.queries[1].error == "no answer stored");
  }

}  // TEST_SUITE

}  // namespace gpuf
