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
