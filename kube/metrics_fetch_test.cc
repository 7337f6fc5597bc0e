#include "kube/metrics_fetch.h"

#include <doctest/doctest.h>

#include "common/file_io.h"
#include "common/time_format.h"
#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("metrics_fetch") {
  TEST_CASE("ServiceProxyFetcher: NAMESPACE/SERVICE[:PORT] reached through the API server's proxy") {
    KubectlRunner kubectl("/bin/false", {}, "/nonexistent");
    auto fetcher = ServiceProxyFetcher(&kubectl, "monitoring/prometheus-k8s:9090");
    REQUIRE(fetcher.ok());
    CHECK((*fetcher)->Source() == "service monitoring/prometheus-k8s:9090 through the API server");
    CHECK(ServiceProxyFetcher(&kubectl, "monitoring/https:prometheus:web").ok());
    for (const char* bad : {"prometheus:9090", "/prometheus", "monitoring/", "a/b/c", "monitoring/prom?x=1"}) {
      auto refused = ServiceProxyFetcher(&kubectl, bad);
      REQUIRE_FALSE(refused.ok());
      CHECK(refused.status().message() == "--metrics-service '" + std::string(bad) +
                                              "' is not NAMESPACE/SERVICE:PORT (e.g. monitoring/prometheus-k8s:9090)");
    }
  }

  TEST_CASE("DirectFetcher: https, no credentials in the URL, one token in its file") {
    test::TempDir dir;
    DirectMetricsOptions o;
    o.work_dir = dir.path();
    const auto refusal = [&](const DirectMetricsOptions& options) {
      auto fetcher = DirectFetcher(options);
      return fetcher.ok() ? std::string("accepted") : fetcher.status().message();
    };
    o.url = "http://prometheus:9090";
    CHECK(refusal(o) == "--metrics 'http://prometheus:9090' is plain http: give an https URL, or --metrics-insecure");
    o.url = "ftp://prometheus";
    CHECK(refusal(o) == "--metrics 'ftp://prometheus' is not an http(s):// URL");
    o.url = "https://admin:hunter2@prometheus:9090/";
    CHECK(refusal(o) == "--metrics URL carries credentials: give a token with --metrics-token-file");
    o.url = "https:///api";
    CHECK(refusal(o) == "--metrics 'https:///api' names no host");

    o.url = "https://prometheus.example:9090/prom/";
    const std::string token = dir.path() + "/token";
    o.token_file = token;
    REQUIRE(WriteWholeFile(token, "eyJhbGciOi.payload.sig\n").ok());
    auto accepted = DirectFetcher(o);
    REQUIRE(accepted.ok());
    CHECK((*accepted)->Source() == "https://prometheus.example:9090/prom");
    o.token_file = dir.path() + "/two";
    REQUIRE(WriteWholeFile(o.token_file, "one\ntwo\n").ok());
    CHECK(refusal(o) == "--metrics-token-file " + o.token_file + " holds more than one token on one line");
    o.token_file = dir.path() + "/empty";
    REQUIRE(WriteWholeFile(o.token_file, "\n").ok());
    CHECK(refusal(o) == "--metrics-token-file " + o.token_file + " is empty");
    o.token_file = dir.path() + "/missing";
    CHECK(refusal(o).rfind("--metrics-token-file " + o.token_file + ": ", 0) == 0);

    o.token_file.clear();
    o.url = "http://127.0.0.1:9";
    o.insecure = true;
    CHECK(refusal(o) == "accepted");
  }

  TEST_CASE("DirectFetcher: a server that is not there is one line from curl") {
    test::TempDir dir;
    DirectMetricsOptions o{.url = "http://127.0.0.1:9", .token_file = "", .insecure = true, .work_dir = dir.path()};
    auto fetcher = DirectFetcher(o);
    REQUIRE(fetcher.ok());
    auto answer = (*fetcher)->Get("/api/v1/query?query=time%28%29", MonotonicNowNs() + 5'000'000'000, nullptr);
    REQUIRE_FALSE(answer.ok());
    CHECK(answer.status().message().rfind("curl: (7) Failed to connect to 127.0.0.1 port 9", 0) == 0);
  }

}  // TEST_SUITE

}  // namespace gpuf
