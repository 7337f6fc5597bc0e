#include "collector/discovery.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include "collector/probe_table.h"

namespace gpuf {

namespace {

// The shape `crictl ps -a -o json` prints (protojson: camelCase, int64 as strings).
constexpr char kCrictlPs[] = R"({
  "containers": [
    {
      "id": "1111111111111111111111111111111111111111111111111111111111111111",
      "podSandboxId": "aaaa",
      "metadata": {"name": "nvidia-device-plugin-ctr", "attempt": 0},
      "image": {"image": "sha256:01", "annotations": {}},
      "imageRef": "sha256:01",
      "state": "CONTAINER_EXITED",
      "createdAt": "1763435897000000000",
      "labels": {"io.kubernetes.container.name": "nvidia-device-plugin-ctr",
                 "io.kubernetes.pod.name": "nvidia-device-plugin-gpu-node-7",
                 "io.kubernetes.pod.namespace": "kube-system"},
      "annotations": {"io.kubernetes.container.restartCount": "0"}
    },
    {
      "id": "2222222222222222222222222222222222222222222222222222222222222222",
      "podSandboxId": "aaaa",
      "metadata": {"name": "nvidia-device-plugin-ctr", "attempt": 1},
      "state": "CONTAINER_RUNNING",
      "createdAt": "1763472723000000000",
      "labels": {"io.kubernetes.pod.name": "nvidia-device-plugin-gpu-node-7"}
    },
    {
      "id": "3333333333333333333333333333333333333333333333333333333333333333",
      "metadata": {"name": "kube-proxy", "attempt": 0},
      "state": "CONTAINER_RUNNING",
      "createdAt": "1763435890000000000",
      "labels": {"io.kubernetes.pod.name": "kube-proxy-x"}
    }
  ]
})";

re2::RE2::Options CaseInsensitive() {
  re2::RE2::Options o;
  o.set_case_sensitive(false);
  return o;
}

}  // namespace

TEST_SUITE("discovery") {

TEST_CASE("PluginContainersFromCrictlPs: matches by name, newest first, running and exited") {
  re2::RE2 pattern(std::string(kDefaultPluginPattern), CaseInsensitive());
  auto found = PluginContainersFromCrictlPs(kCrictlPs, pattern, 16);
  REQUIRE(found.size() == 2);
  CHECK(found[0].id.substr(0, 4) == "2222");
  CHECK(found[0].state == "CONTAINER_RUNNING");
  CHECK(found[1].id.substr(0, 4) == "1111");
  CHECK(found[1].pod_namespace == "kube-system");
  CHECK(found[1].created_at_ns == 1763435897000000000LL);
}

TEST_CASE("PluginContainersFromCrictlPs: of a GPU Operator node, the plugin container, not its sidecar or validators") {
  // Names as NVIDIA/gpu-operator deploys them; one container per role.
  auto container = [](const char* id, const char* name, const char* pod, const char* image, const char* state,
                      const char* created) {
    return std::string(R"({"id": ")") + std::string(64, id[0]) + R"(", "metadata": {"name": ")" + name +
           R"("}, "image": {"image": ")" + image + R"("}, "state": ")" + state + R"(", "createdAt": ")" + created +
           R"(", "labels": {"io.kubernetes.pod.name": ")" + pod +
           R"(", "io.kubernetes.pod.namespace": "gpu-operator"}})";
  };
  const std::string plugin_image = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0";
  const std::string validator_image = "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.9.0";
  const std::string ps =
      R"({"containers": [)" +
      container("a", "toolkit-validation", "nvidia-device-plugin-daemonset-7xk2p", plugin_image.c_str(),
                "CONTAINER_EXITED", "1763435897000000000") + "," +
      container("b", "nvidia-device-plugin", "nvidia-device-plugin-daemonset-7xk2p", plugin_image.c_str(),
                "CONTAINER_RUNNING", "1763435899000000000") + "," +
      container("c", "config-manager", "nvidia-device-plugin-daemonset-7xk2p", plugin_image.c_str(),
                "CONTAINER_RUNNING", "1763435899100000000") + "," +
      container("d", "nvidia-device-plugin-validator", "nvidia-device-plugin-validator-5mn8q",
                validator_image.c_str(), "CONTAINER_EXITED", "1763435950000000000") + "," +
      container("e", "plugin", "gpu-manager-x", plugin_image.c_str(), "CONTAINER_RUNNING", "1763435800000000000") +
      "]}";
  re2::RE2 pattern(std::string(kDefaultPluginPattern), CaseInsensitive());
  auto found = PluginContainersFromCrictlPs(ps, pattern, 16);
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "nvidia-device-plugin");
  CHECK(found[0].id == std::string(64, 'b'));
  CHECK(found[1].name == "plugin");  // a renamed pod, known by its image
}

TEST_CASE("PluginContainerFromCtrInfo: the command decides when the image is the plugin's") {
  re2::RE2 pattern(std::string(kDefaultPluginPattern), CaseInsensitive());
  PluginContainer out;
  CHECK(PluginContainerFromCtrInfo(
      R"({"ID": "ab12", "Image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
          "Labels": {"io.kubernetes.container.name": "cm", "io.kubernetes.pod.name": "nvidia-device-plugin-daemonset-1"},
          "Spec": {"process": {"args": ["config-manager"]}}})",
      pattern, out) == false);
  CHECK(PluginContainerFromCtrInfo(
      R"({"ID": "ab13", "Image": "registry.example/dp:1",
          "Labels": {"io.kubernetes.container.name": "dp", "io.kubernetes.pod.name": "x"},
          "Spec": {"process": {"args": ["/usr/bin/nvidia-device-plugin"]}}})",
      pattern, out));
  CHECK(out.id == "ab13");
}

TEST_CASE("PluginContainersFromCrictlPs: garbage yields nothing") {
  re2::RE2 pattern("device-plugin");
  CHECK(PluginContainersFromCrictlPs("not json", pattern, 16).empty());
  CHECK(PluginContainersFromCrictlPs("{\"containers\": 5}", pattern, 16).empty());
}

TEST_CASE("ContainerCgroupDir: proc cgroup first, then the OCI cgroupsPath") {
  SUBCASE("cgroup v1 devices line") {
    std::string proc = "12:devices:/kubepods.slice/kubepods-besteffort.slice/cri-containerd-ab.scope\n"
                       "11:cpu,cpuacct:/kubepods.slice/x\n";
    CHECK(ContainerCgroupDir(proc, "") == "kubepods.slice/kubepods-besteffort.slice/cri-containerd-ab.scope");
  }
  SUBCASE("cgroup v2 unified line") {
    CHECK(ContainerCgroupDir("0::/kubepods.slice/cri-containerd-ab.scope\n", "") ==
          "kubepods.slice/cri-containerd-ab.scope");
  }
  SUBCASE("systemd cgroupsPath expands the slice hierarchy") {
    CHECK(ContainerCgroupDir("", "kubepods-besteffort-pod4cad64d0_7a36.slice:cri-containerd:ab") ==
          "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod4cad64d0_7a36.slice/"
          "cri-containerd-ab.scope");
  }
  SUBCASE("cgroupfs cgroupsPath is a path") {
    CHECK(ContainerCgroupDir("", "/kubepods/besteffort/pod4cad/ab") == "kubepods/besteffort/pod4cad/ab");
  }
  CHECK(SystemdScopeOf("kubepods.slice/cri-containerd-ab.scope") == "cri-containerd-ab.scope");
  CHECK(SystemdScopeOf("kubepods/besteffort/pod4cad/ab") == "");
}

TEST_CASE("ContainerFactsFromInspect: pid, cgroupsPath and log path") {
  std::string inspect = R"({"status":{"state":"CONTAINER_RUNNING","logPath":"/var/log/pods/kube-system_p_u/c/0.log"},)"
                        R"("info":{"pid":4242,"runtimeSpec":{"linux":{"cgroupsPath":"a.slice:cri-containerd:ab"}}}})";
  ContainerFacts facts = ContainerFactsFromInspect(inspect);
  CHECK(facts.pid == 4242);
  CHECK(facts.running);
  CHECK(facts.cgroups_path == "a.slice:cri-containerd:ab");
  CHECK(facts.log_path == "/var/log/pods/kube-system_p_u/c/0.log");
}

}  // TEST_SUITE

}  // namespace gpuf
