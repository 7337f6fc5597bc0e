#include "kube/collector_pod.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("collector_pod") {

TEST_CASE("CollectorPodName: a valid pod name for any node name") {
  CHECK(CollectorPodName("gpu-node-17", "0a1b2c3d") == "gpuforensics-gpu-node-17-0a1b2c3d");
  CHECK(CollectorPodName("ip-10-0-3-17.ec2.internal", "0a1b2c3d") ==
        "gpuforensics-ip-10-0-3-17.ec2.internal-0a1b2c3d");
  // Kept to 40 characters, never ending in '-' or '.'.
  CHECK(CollectorPodName("aks-gpupool-12345678-vmss000000.very-long-domain.example", "0a1b2c3d") ==
        "gpuforensics-aks-gpupool-12345678-vmss000000.very-lon-0a1b2c3d");
  CHECK(CollectorPodName("Node_A", "0a1b2c3d") == "gpuforensics-node-a-0a1b2c3d");
  CHECK(CollectorPodName("---", "0a1b2c3d") == "gpuforensics-node-0a1b2c3d");
}

TEST_CASE("CollectorPod: pinned to the node, privileged, host PID, host / read-only, labelled with the run") {
  auto pod = CollectorPod({"gpu-a", "0a1b2c3d", "registry.example/gpuforensics-collect:0.1.0", 360});
  CHECK(pod["metadata"]["name"] == "gpuforensics-gpu-a-0a1b2c3d");
  CHECK(pod["metadata"]["labels"]["gpuforensics.io/run"] == "0a1b2c3d");
  CHECK(pod["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "kubectl-gpuforensics");
  const auto& spec = pod["spec"];
  CHECK(spec["nodeName"] == "gpu-a");
  CHECK(spec["hostPID"] == true);
  CHECK(spec["activeDeadlineSeconds"] == 360);
  CHECK(spec["tolerations"] == nlohmann::json::parse(R"([{"operator":"Exists"}])"));
  CHECK(spec["automountServiceAccountToken"] == false);
  const auto& c = spec["containers"][0];
  CHECK(c["image"] == "registry.example/gpuforensics-collect:0.1.0");
  CHECK(c["command"] == nlohmann::json::parse(R"(["sleep","360"])"));
  CHECK(c["securityContext"]["privileged"] == true);
  CHECK(c["env"][0]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName");
  CHECK(c["volumeMounts"][0] == nlohmann::json::parse(
      R"({"name":"host","mountPath":"/host","readOnly":true,"mountPropagation":"HostToContainer"})"));
  CHECK(spec["volumes"][0]["hostPath"]["path"] == "/");
}

TEST_CASE("CollectCommand: collect with the bundle on stdout, reading the host under /host") {
  CHECK(CollectCommand(120, false, false) == std::vector<std::string>{"gpuforensics-collect", "collect", "--root",
                                                                       "/host", "--exec", "chroot", "--output", "-",
                                                                       "--deadline", "120"});
  CHECK(CollectCommand(40, true, false).back() == "--no-driver");
  auto with_node = CollectCommand(40, false, true);
  CHECK(std::vector<std::string>(with_node.end() - 3, with_node.end()) ==
        std::vector<std::string>{"40", "--node-object", "-"});
}

}  // TEST_SUITE

}  // namespace gpuf
