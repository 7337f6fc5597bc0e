#include "formats/kube_node.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("A Node's conditions are read with the time each last changed") {
  const auto conditions = ParseNodeConditions(R"({"kind": "Node", "status": {"conditions": [
      {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
       "message": "kubelet has sufficient memory available", "lastTransitionTime": "2026-11-01T08:00:00Z"},
      {"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown",
       "message": "Kubelet stopped posting node status.", "lastTransitionTime": "2026-11-18T03:21:05Z"},
      {"type": "GpuProblem", "status": "True"}]}})");
  REQUIRE(conditions.size() == 3);
  CHECK(conditions[1].type == "Ready");
  CHECK(conditions[1].status == "Unknown");
  CHECK(conditions[1].reason == "NodeStatusUnknown");
  CHECK(conditions[1].message == "Kubelet stopped posting node status.");
  REQUIRE(conditions[1].last_transition_ns.has_value());
  CHECK(*conditions[1].last_transition_ns == 1794972065LL * 1000000000LL);
  CHECK_FALSE(conditions[2].last_transition_ns.has_value());
}

TEST_CASE("Text that is not a Node has no conditions, and a condition without a type is skipped") {
  CHECK(ParseNodeConditions("not json").empty());
  CHECK(ParseNodeConditions(R"({"status": {"conditions": "Ready"}})").empty());
  CHECK(ParseNodeConditions(R"({"status": {"conditions": [{"status": "True"}, 7]}})").empty());
}

}  // namespace gpuf
