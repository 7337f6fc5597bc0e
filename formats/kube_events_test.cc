#include "formats/kube_events.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/test_support.h"

namespace gpuf {

namespace {

std::string Corpus(const std::string& relative) {
  std::ifstream in(test::SourcePath("tests/corpus/" + relative), std::ios::binary);
  REQUIRE_MESSAGE(in.good(), relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_SUITE("kube_events") {

TEST_CASE("ParseKubeEvents: get events rows without their header") {
  KubeEvents e = ParseKubeEvents(Corpus("gpu-operator-pr2168-events-no-runtime/events.txt"));
  CHECK(e.warnings.empty());
  REQUIRE(e.events.size() == 4);
  CHECK(e.events[0].line == 1);
  CHECK(e.events[0].age == "3m45s");
  CHECK(e.events[0].type == "Warning");
  CHECK(e.events[0].reason == "FailedCreatePodSandBox");
  CHECK(e.events[0].object == "pod/nvidia-operator-validator-l4754");
  CHECK(e.events[0].count == 1);
  CHECK_FALSE(e.events[0].source);
  CHECK(e.events[0].message.rfind("Failed to create pod sandbox: rpc error: code = Unknown desc = unable to get OCI "
                                  "runtime for sandbox",
                                  0) == 0);
}

TEST_CASE("ParseKubeEvents: a describe Events table, its header, the prompt and elision before it") {
  KubeEvents e = ParseKubeEvents(Corpus("gpu-operator-730-no-runtime-nvidia/describe-plugin-pod.txt"));
  CHECK(e.warnings.empty());
  REQUIRE(e.events.size() == 2);
  CHECK(e.events[1].line == 7);
  CHECK(e.events[1].reason == "FailedCreatePodSandBox");
  CHECK(e.events[1].age == "12s (x10 over 2m11s)");
  CHECK(e.events[1].count == 10);
  CHECK(e.events[1].source == "kubelet");
  CHECK(e.events[1].message ==
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "
        "\"nvidia\" is configured");
  CHECK(e.events[0].source == "default-scheduler");
}

TEST_CASE("ParseKubeEvents: a row whose leading blanks were lost, and Kubernetes 1.4's tab-separated row") {
  KubeEvents e = ParseKubeEvents(Corpus("cnd-gpu-operator-no-runtime-nvidia/describe-pod-events.txt"));
  CHECK(e.warnings.empty());
  REQUIRE(e.events.size() == 1);
  CHECK(e.events[0].count == 94);
  KubeEvents old = ParseKubeEvents(Corpus("sextant-397-nvidia-uvm-missing-1.4-events/describe-pod-events.txt"));
  CHECK(old.warnings.empty());
  REQUIRE(old.events.size() == 1);
  CHECK(old.events[0].source == "kubelet 0c-c4-7a-82-c5-bc");
  CHECK(old.events[0].object == "spec.containers{worker}");
  CHECK(old.events[0].reason == "Failed");
  CHECK(old.events[0].message.rfind("Failed to start container with docker id aa5a0319488f", 0) == 0);
}

TEST_CASE("ParseKubeEvents: -o json, with times") {
  KubeEvents e = ParseKubeEvents(
      R"({"apiVersion":"v1","kind":"EventList","items":[{"kind":"Event","count":3,"type":"Warning",)"
      R"("reason":"UnexpectedAdmissionError","involvedObject":{"kind":"Pod","name":"cuda-sample"},)"
      R"("source":{"component":"kubelet","host":"node-1"},"lastTimestamp":"2026-11-18T03:20:00Z",)"
      R"("message":"Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected"}]})");
  CHECK(e.warnings.empty());
  REQUIRE(e.events.size() == 1);
  CHECK(e.events[0].object == "pod/cuda-sample");
  CHECK(e.events[0].count == 3);
  CHECK(e.events[0].source == "kubelet, node-1");
  CHECK(e.events[0].last_seen_ns == 1794972000000000000LL);
}

TEST_CASE("ParseKubeEvents: a line that is no row continues the row before, or is a warning") {
  KubeEvents e = ParseKubeEvents(
      "  Warning  Failed  1s  kubelet  Error: failed to create containerd task: ... stderr: Auto-detected mode as 'legacy'\n"
      "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown\n");
  REQUIRE(e.events.size() == 1);
  CHECK(e.events[0].message ==
        "Error: failed to create containerd task: ... stderr: Auto-detected mode as 'legacy'\n"
        "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown");
  KubeEvents lone = ParseKubeEvents("just some text\n");
  REQUIRE(lone.warnings.size() == 1);
  CHECK(lone.warnings[0].message == "not an event row: just some text");
}

}  // TEST_SUITE

}  // namespace gpuf
