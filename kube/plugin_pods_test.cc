#include "kube/plugin_pods.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("plugin_pods") {
  TEST_CASE("DevicePluginPods: by name or app label, with their namespaces") {
    const auto list = nlohmann::json::parse(R"({"apiVersion":"v1","kind":"PodList","items":[
    {"metadata":{"name":"nvidia-device-plugin-daemonset-7xk2p","namespace":"gpu-operator",
                 "labels":{"app":"nvidia-device-plugin-daemonset"},
                 "ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"nvidia-device-plugin-daemonset",
                                     "uid":"5c2e","controller":true,"blockOwnerDeletion":true}]}},
    {"metadata":{"name":"kube-proxy-x8k2l","namespace":"kube-system","labels":{"k8s-app":"kube-proxy"}}},
    {"metadata":{"name":"nvidia-gpu-device-plugin-small-cos-9g5hx","namespace":"kube-system"}},
    {"metadata":{"name":"gpu-plugin-abc12","namespace":"vendor","labels":{"app.kubernetes.io/name":"ascend-device-plugin"}}},
    {"metadata":{"name":"no-namespace-device-plugin"}},
    7]})");
    const std::vector<PodRef> pods = DevicePluginPods(list);
    REQUIRE(pods.size() == 3);
    CHECK(pods[0].namespace_ == "gpu-operator");
    CHECK(pods[0].name == "nvidia-device-plugin-daemonset-7xk2p");
  CHECK(pods[0].daemonset == "nvidia-device-plugin-daemonset");
  CHECK(pods[1].daemonset.empty());
    CHECK(pods[1].name == "nvidia-gpu-device-plugin-small-cos-9g5hx");
    CHECK(pods[2].name == "gpu-plugin-abc12");
    CHECK(DevicePluginPods(nlohmann::json::parse(R"({"kind":"NodeList","items":[]})")).empty());
    CHECK(DevicePluginPods(nlohmann::json()).empty());
  }

  TEST_CASE("AppendEvents: the pod's events after the Node's") {
    auto events = nlohmann::json::parse(R"({"kind":"EventList","items":[{"reason":"Rebooted"}]})");
    AppendEvents(events, nlohmann::json::parse(R"({"kind":"List","items":[{"reason":"BackOff"}]})"));
    AppendEvents(events, nlohmann::json::parse(R"({"kind":"List","items":[]})"));
    AppendEvents(events, nlohmann::json::parse(R"("garbage")"));
    REQUIRE(events["items"].size() == 2);
    CHECK(events["items"][1]["reason"] == "BackOff");
  }

}  // TEST_SUITE

}  // namespace gpuf
