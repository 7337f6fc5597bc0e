#include "kube/cluster_objects.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("cluster_objects") {

// The Ready condition as the node lifecycle controller leaves it when the
// kubelet stops reporting, and as the kubelet sets it while it does.
constexpr const char* kNodeList = R"({"apiVersion":"v1","kind":"List","items":[
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-a"},"status":{"conditions":[
    {"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory"},
    {"type":"Ready","status":"True","reason":"KubeletReady","message":"kubelet is posting ready status"}]}},
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-b"},"status":{"conditions":[
    {"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status."}]}},
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-c"},"status":{}}]})";

TEST_CASE("NodesFromJson: names and readiness of a List, a NodeList and one Node") {
  auto nodes = NodesFromJson(kNodeList);
  REQUIRE(nodes.ok());
  REQUIRE(nodes->size() == 3);
  CHECK((*nodes)[0].name == "gpu-a");
  CHECK((*nodes)[0].ready);
  CHECK((*nodes)[0].not_ready == "");
  CHECK((*nodes)[1].name == "gpu-b");
  CHECK_FALSE((*nodes)[1].ready);
  CHECK((*nodes)[1].not_ready == "Unknown: Kubelet stopped posting node status.");
  CHECK_FALSE((*nodes)[2].ready);
  CHECK((*nodes)[2].not_ready == "no Ready condition");

  auto one = NodesFromJson(R"({"kind":"Node","metadata":{"name":"gpu-d"},"status":{"conditions":[
      {"type":"Ready","status":"False","reason":"KubeletNotReady"}]}})");
  REQUIRE(one.ok());
  REQUIRE(one->size() == 1);
  CHECK((*one)[0].not_ready == "False (KubeletNotReady)");

  auto empty = NodesFromJson(R"({"apiVersion":"v1","kind":"NodeList","items":[]})");
  REQUIRE(empty.ok());
  CHECK(empty->empty());
}

TEST_CASE("NodesFromJson: what is not nodes is refused") {
  CHECK(NodesFromJson(R"({"kind":"Pod"})").status().message() == "kubectl printed a 'Pod', not nodes");
  CHECK(NodesFromJson("No resources found").status().message() ==
        "kubectl did not print a JSON object for the nodes");
}

TEST_CASE("PodStateFromJson: starting, running, and the states it never leaves") {
  auto pending = PodStateFromJson(R"({"kind":"Pod","status":{"phase":"Pending","containerStatuses":[
      {"name":"collect","state":{"waiting":{"reason":"ContainerCreating"}}}]}})");
  REQUIRE(pending.ok());
  CHECK(pending->progress == PodProgress::kStarting);

  auto running = PodStateFromJson(R"({"kind":"Pod","status":{"phase":"Running","containerStatuses":[
      {"name":"collect","state":{"running":{"startedAt":"2026-11-18T10:00:02Z"}}}]}})");
  REQUIRE(running.ok());
  CHECK(running->progress == PodProgress::kRunning);

  auto pull = PodStateFromJson(R"({"kind":"Pod","status":{"phase":"Pending","containerStatuses":[
      {"name":"collect","state":{"waiting":{"reason":"ImagePullBackOff",
       "message":"Back-off pulling image \"registry.example/gpuforensics-collect:0.1.0\""}}}]}})");
  REQUIRE(pull.ok());
  CHECK(pull->progress == PodProgress::kFailed);
  CHECK(pull->reason == "ImagePullBackOff: Back-off pulling image \"registry.example/gpuforensics-collect:0.1.0\"");

  auto evicted = PodStateFromJson(R"({"kind":"Pod","status":{"phase":"Failed","reason":"Evicted",
      "message":"The node was low on resource: ephemeral-storage."}})");
  REQUIRE(evicted.ok());
  CHECK(evicted->progress == PodProgress::kFailed);
  CHECK(evicted->reason == "phase Failed: Evicted: The node was low on resource: ephemeral-storage.");

  CHECK(PodStateFromJson(R"({"kind":"Node"})").status().message() == "kubectl printed a 'Node', not a pod");
}

}  // TEST_SUITE

}  // namespace gpuf
