#include "kube/metrics_query.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace gpuf {

TEST_SUITE("metrics_query") {
  TEST_CASE("MetricsPromql: the node's label and name filled in, the name quoted") {
    const MetricsQueryRow& allocatable = MetricsQueries()[0];
    CHECK(allocatable.name == "allocatable");
    CHECK(MetricsPromql(allocatable, "node", "gpu-7") ==
          R"(kube_node_status_allocatable{node="gpu-7",resource=~"nvidia_com_.*"})");
    CHECK(MetricsPromql(allocatable, "kubernetes_node", R"(a"b\c)") ==
          R"(kube_node_status_allocatable{kubernetes_node="a\"b\\c",resource=~"nvidia_com_.*"})");
    std::vector<std::string> names;
    for (const auto& row : MetricsQueries()) names.emplace_back(row.name);
    CHECK(names == std::vector<std::string>{"allocatable", "capacity", "plugin_restarts", "alerts"});
    CHECK(MetricsPromql(MetricsQueries()[3], "node", "gpu-7") == R"(ALERTS{node="gpu-7"})");
  }

  TEST_CASE("RangeEndingAt: 30 s steps, coarser when the window would give more points") {
    MetricsRange day = RangeEndingAt(1733548800, 86400);
    CHECK(day.start_unix_s == 1733462400);
    CHECK(day.end_unix_s == 1733548800);
    CHECK(day.step_s == 30);
    CHECK(RangeEndingAt(1733548800, 3600).step_s == 30);
    MetricsRange week = RangeEndingAt(1733548800, 7 * 86400);
    CHECK(week.step_s == 210);
    CHECK((week.end_unix_s - week.start_unix_s) / week.step_s <= kMaxMetricsPoints);
  }

  TEST_CASE("RangeQueryPath: the query percent-encoded, the range in unix seconds") {
    CHECK(RangeQueryPath(R"(ALERTS{node="a b"})", {100, 200, 30}) ==
          "/api/v1/query_range?query=ALERTS%7Bnode%3D%22a%20b%22%7D&start=100&end=200&step=30");
    CHECK(ServerTimePath() == "/api/v1/query?query=time%28%29");
    CHECK(PercentEncode("a-b.c_d~e/\xff") == "a-b.c_d~e%2F%FF");
  }

  TEST_CASE("ParseWindowSeconds: s, m, h, d or bare seconds, up to 7 days") {
    CHECK(*ParseWindowSeconds("24h") == 86400);
    CHECK(*ParseWindowSeconds("90m") == 5400);
    CHECK(*ParseWindowSeconds("3600s") == 3600);
    CHECK(*ParseWindowSeconds("3600") == 3600);
    CHECK(*ParseWindowSeconds("7d") == 7 * 86400);
    for (const char* bad : {"", "h", "0h", "8d", "1.5h", "-1h", "24 h", "99999999999999h"}) {
      auto parsed = ParseWindowSeconds(bad);
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.status().message() ==
            "--metrics-window '" + std::string(bad) + "' is not a duration of at most 7 days (24h, 90m, 3600s, 2d)");
    }
  }

  TEST_CASE("CheckLabelName: a Prometheus label name") {
    CHECK(CheckLabelName("node").ok());
    CHECK(CheckLabelName("kubernetes_node").ok());
    CHECK(CheckLabelName("_x9").ok());
    CHECK_FALSE(CheckLabelName("").ok());
    CHECK_FALSE(CheckLabelName("9node").ok());
    CHECK(CheckLabelName("node\"}").message() ==
          "--metrics-node-label 'node\"}' is not a label name ([a-zA-Z_][a-zA-Z0-9_]*)");
  }

}  // TEST_SUITE

}  // namespace gpuf
