#include "formats/kube_text.h"

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

TEST_SUITE("kube_text") {

TEST_CASE("ParseKubePodText: the pod's Status, Reason and Message") {
  KubePodText p = ParseKubePodText(Corpus("k8s-130145-stale-allocated-devices/describe-pod.txt"));
  CHECK(p.warnings.empty());
  REQUIRE(p.states.size() == 1);
  CHECK(p.states[0].which == "pod");
  CHECK(p.states[0].line == 2);
  CHECK(p.states[0].state == "Failed");
  CHECK(p.states[0].reason == "UnexpectedAdmissionError");
  CHECK(p.states[0].message ==
        "Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested:1, "
        "Available: 0, which is unexpected");
}

TEST_CASE("ParseKubePodText: State and Last State, a Message continued by the hook's stderr") {
  KubePodText p = ParseKubePodText(
      "    Last State:  Terminated\n"
      "      Reason:    StartError\n"
      "      Message:   failed to create containerd task: ... stderr: Auto-detected mode as 'legacy'\n"
      "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown\n"
      "      Exit Code:    128\n"
      "    Ready:          False\n"
      "    Restart Count:  6\n");
  CHECK(p.warnings.empty());
  REQUIRE(p.states.size() == 1);
  CHECK(p.states[0].which == "last_state");
  CHECK(p.states[0].state == "Terminated");
  CHECK(p.states[0].reason == "StartError");
  CHECK(p.states[0].exit_code == 128);
  CHECK(p.states[0].restart_count == 6);
  CHECK(p.states[0].message ==
        "failed to create containerd task: ... stderr: Auto-detected mode as 'legacy'\n"
        "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown");
}

TEST_CASE("ParseKubePodText: two fields a wide terminal put on one row, a Message wrapped by one blank") {
  KubePodText p = ParseKubePodText(Corpus("cnd-gpu-operator-gfd-driver-rpc-timeout-xid79/describe-gfd-pod.txt"));
  CHECK(p.warnings.empty());
  REQUIRE(p.states.size() == 2);
  CHECK(p.states[0].container == "gpu-feature-discovery");
  CHECK(p.states[0].which == "state");
  CHECK(p.states[0].state == "Waiting");
  CHECK(p.states[0].reason == "CrashLoopBackOff");
  CHECK(p.states[1].which == "last_state");
  CHECK(p.states[1].state == "Terminated");
  CHECK(p.states[1].reason == "StartError");
  CHECK(p.states[1].message ==
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: "
        "unable to start container process: error during container init: error running\n"
        "hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli.real: initialization "
        "error: driver rpc error: timed out: unknown");
}

TEST_CASE("ParseKubePodText: the Events of a description") {
  KubePodText p = ParseKubePodText(Corpus("k8s-device-plugin-readme-timeslicing-request-too-large/describe-pod.txt"));
  CHECK(p.warnings.empty());
  REQUIRE(p.events.size() == 1);
  CHECK(p.events[0].reason == "UnexpectedAdmissionError");
}

TEST_CASE("ParseKubeGetPods: rows with and without the header, restarts with their age") {
  KubePodText p = ParseKubeGetPods(Corpus("hami-713-after-reboot-hook-fails/get-pods.txt"));
  CHECK(p.warnings.empty());
  REQUIRE(p.states.size() == 6);
  CHECK(p.states[2].pod == "hami-device-plugin-tp8b9");
  CHECK(p.states[2].ready == "0/2");
  CHECK(p.states[2].state == "CrashLoopBackOff");
  CHECK(p.states[2].restart_count == 532);
  KubePodText old = ParseKubeGetPods(Corpus("k8s-42412-alpha-gpu-not-released/get-pods.txt"));
  CHECK(old.warnings.empty());
  REQUIRE(old.states.size() == 3);
  CHECK(old.states[2].state == "requested number of GPUs unavailable. Requested: 4, Available: 0");
}

TEST_CASE("ParseKubeNodeText: describe node, -o yaml, and a jq part of the JSON") {
  KubeNodeText d = ParseKubeNodeText(Corpus("cnd-gpu-operator-seven-of-eight-xid79/describe-node.txt"));
  CHECK(d.warnings.empty());
  REQUIRE(d.resources.size() == 2);
  CHECK(d.resources[0].field == "capacity");
  CHECK(d.resources[0].resource == "nvidia.com/gpu");
  CHECK(d.resources[0].quantity == "7");
  CHECK(d.resources[1].field == "allocatable");
  KubeNodeText y = ParseKubeNodeText(Corpus("k8s-device-plugin-58-allocatable-zero-yaml/node.yaml"));
  CHECK(y.warnings.empty());
  REQUIRE(y.resources.size() == 2);
  CHECK(y.resources[0].field == "allocatable");
  CHECK(y.resources[0].quantity == "0");
  CHECK(y.resources[1].quantity == "16");
  KubeNodeText j = ParseKubeNodeText(Corpus("k8s-117955-completed-pod-readmitted/allocatable.json"));
  CHECK(j.warnings.empty());
  REQUIRE(j.resources.size() == 1);
  CHECK(j.resources[0].field == "allocatable");
  CHECK(j.resources[0].resource == "nvidia.com/gpu");
  KubeNodeText l = ParseKubeNodeText(Corpus("cnd-mig-k8s-single-strategy-healthy/node-labels.json"));
  CHECK(l.warnings.empty());
  CHECK(l.resources.empty());
  REQUIRE_FALSE(l.labels.empty());
  CHECK(l.labels[0].key == "node-role.kubernetes.io/master");
  CHECK(l.labels[0].value == "");
  // A person's note after the quantity is not part of it.
  KubeNodeText n = ParseKubeNodeText(Corpus("gpu-operator-1065-seven-of-eight/describe-node.txt"));
  bool marked = false;
  for (const auto& r : n.resources) {
    if (r.resource == "nvidia.com/gpu" && r.field == "allocatable") marked = r.quantity == "7";
  }
  CHECK(marked);
}

TEST_CASE("ParseKubeNodeText: a describe node whose paste lost the indentation of its rows") {
  // tests/corpus/jk97-my-note-kubeflow-master-1080ti-gpu-zero-zh: every row at its section's depth.
  KubeNodeText d = ParseKubeNodeText(Corpus("jk97-my-note-kubeflow-master-1080ti-gpu-zero-zh/describe-nodes.txt"));
  REQUIRE(d.resources.size() == 2);
  CHECK(d.resources[0].field == "capacity");
  CHECK(d.resources[0].quantity == "0");
  CHECK(d.resources[1].field == "allocatable");
  CHECK(d.resources[1].quantity == "0");
  // A section head after the rows still ends the block.
  KubeNodeText e = ParseKubeNodeText("Capacity:\ncpu:  16\nnvidia.com/gpu:  8\nSystem Info:\nnvidia.com/gpu:  3\n");
  REQUIRE(e.resources.size() == 1);
  CHECK(e.resources[0].quantity == "8");
}

TEST_CASE("ParseKubeNodeText: labels of describe node, and time-slicing's renamed resource") {
  KubeNodeText d = ParseKubeNodeText(Corpus("cnd-time-slicing-rename-by-default-gpu-zero/describe-node.txt"));
  CHECK(d.warnings.empty());
  bool shared = false;
  for (const auto& r : d.resources) shared = shared || r.resource == "nvidia.com/gpu.shared";
  CHECK(shared);
  REQUIRE_FALSE(d.labels.empty());
  CHECK(d.labels[0].key == "nvidia.com/gpu.count");
  CHECK(d.labels[0].value == "4");
}

}  // TEST_SUITE

}  // namespace gpuf
