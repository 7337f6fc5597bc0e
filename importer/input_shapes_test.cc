#include "importer/input_shapes.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/test_support.h"

namespace gpuf {

namespace {

// A file of the corpus of saved outputs (tests/corpus/README.md): lines
// verbatim from public threads, each case with its source in case.yaml.
std::string Corpus(const std::string& relative) {
  std::ifstream in(test::SourcePath("tests/corpus/" + relative), std::ios::binary);
  REQUIRE_MESSAGE(in.good(), relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

struct Expect {
  const char* file;
  const char* shape;  // "" when no shape should take it
  const char* view;   // for nvidia-smi: what decides; "" otherwise
};

}  // namespace

TEST_SUITE("input_shapes") {

TEST_CASE("RecogniseInput: every saved output of the corpus is read as what it is") {
  const Expect cases[] = {
      {"akash-244-xid94-kubectl-timestamps/dmesg.txt", "dmesg -T", ""},
      {"akash-244-xid94-kubectl-timestamps/plugin.log", "kubectl logs --timestamps", ""},
      {"bottlerocket-4250-kubelet-sock-race/journal-kubelet.txt", "journal or syslog text", ""},
      {"bottlerocket-core-kit-122-persistenced-running/systemctl-status.txt", "systemctl status", ""},
      {"cnd-gpu-operator-gfd-driver-rpc-timeout-xid79/describe-gfd-pod.txt", "kubectl describe pod", ""},
      {"cnd-gpu-operator-gfd-driver-rpc-timeout-xid79/dmesg-xid.txt", "kernel messages without stamps", ""},
      {"cnd-gpu-operator-inforom-corrupted/driver-validation.log", "nvidia-smi table", "unknown"},
      {"cnd-gpu-operator-no-runtime-nvidia/describe-pod-events.txt", "kubectl describe Events rows", ""},
      {"cnd-gpu-operator-operator-oom-large-cluster/get-pod.txt", "kubectl get pods", ""},
      {"cnd-gpu-operator-seven-of-eight-xid79/describe-node.txt", "kubectl describe node", ""},
      {"cnd-gpu-operator-seven-of-eight-xid79/plugin.log", "klog", ""},
      {"cnd-mig-k8s-single-strategy-healthy/node-labels.json", "kubectl get node -o json (or a jq part of it)", ""},
      {"cnd-mig-k8s-single-strategy-healthy/nvidia-smi-mig-lgi.txt", "nvidia-smi mig -lgi", "unknown"},
      {"cnd-mig-k8s-single-strategy-healthy/plugin.log", "Go log", ""},
      {"cube-studio-29-fm-on-4090/journal.txt", "journal or syslog text", ""},
      {"dra-driver-626-fabric-completed-unhealthy/nvidia-smi-q-fabric.txt", "nvidia-smi -q", "unknown"},
      {"gpu-operator-1146-dbe-rminit-syslog/syslog.txt", "journal or syslog text", ""},
      {"gpu-operator-610-fm-no-nvswitch-zh/journal.txt", "journal or syslog text", ""},
      {"gpu-operator-610-fm-no-nvswitch-zh/systemctl-start.txt", "systemctl start error", ""},
      {"gpu-operator-pr2168-events-no-runtime/events.txt", "kubectl get events", ""},
      {"gpud-46-app-xids-ctime/dmesg-ctime.txt", "dmesg -T", ""},
      {"gpud-testdata-dmesg-decode-iso-xid13/dmesg-decode-iso.txt", "dmesg --time-format iso", ""},
      {"gpushare-156-listandwatch-grpc-too-large/kubelet-grep.txt", "klog", ""},
      {"hami-715-nvidia-runtime-on-gpu-less-master/events.txt", "container runtime or NVIDIA hook error", ""},
      {"k8s-117955-completed-pod-readmitted/allocatable.json", "kubectl get node -o json (or a jq part of it)", ""},
      {"k8s-117955-completed-pod-readmitted/get-nodes.txt", "kubectl get nodes", ""},
      {"k8s-124345-kubelet-event-klog/kubelet.log", "klog", ""},
      {"k8s-130145-stale-allocated-devices/describe-pod.txt", "kubectl describe pod", ""},
      {"k8s-138446-kubelet-iso-syslog-prefix/kubelet.log", "journal or syslog text", ""},
      {"k8s-42412-alpha-gpu-not-released/get-pods.txt", "kubectl get pods", ""},
      {"k8s-54542-kubelet-status-zh-locale/systemctl-status-kubelet.txt", "systemctl status", ""},
      {"k8s-97131-gpu-lost-admission/describe-pod.txt", "kubectl describe pod", ""},
      {"k8s-device-plugin-1228-capacity-zero-vendor-build/node-status.yaml", "kubectl get node -o yaml", ""},
      {"k8s-device-plugin-1431-version-mismatch-at-boot/nvidia-smi.txt", "nvidia-smi -L or its NVML error", "unknown"},
      {"k8s-device-plugin-1431-version-mismatch-at-boot/nvidia-container-cli-version.txt", "--version outputs", ""},
      {"k8s-device-plugin-23-v1.8-no-default-runtime/plugin.log", "device plugin output without stamps", ""},
      {"amazon-eks-ami-2790-ctk-1.20-readonly-etc-nvidia-hook/container-create-error.txt",
       "container runtime or NVIDIA hook error", ""},
      {"k8s-device-plugin-231-gpu-lost-every-pod-rejected/describe-pod-message.txt", "kubelet admission message", ""},
      {"k8s-device-plugin-2038-xid79-preferred-allocation-v018/events.txt", "kubelet admission event", ""},
      {"k8s-device-plugin-253-mig-single-no-mig-devices-panic/plugin.log", "Go log", ""},
      {"pytorch-ci-infra-1057-gpu-lost-nvlink-wrapped/kubelet-message.txt", "kubelet admission message", ""},
      {"k8s-device-plugin-444-cri-log-file-v0.14.1/0.log", "CRI log file", ""},
      {"k8s-device-plugin-58-allocatable-zero-yaml/node.yaml", "kubectl get node -o yaml", ""},
      {"k8s-device-plugin-62-crio-no-hook-golog/describe-node.txt", "kubectl describe node", ""},
      {"karpenter-730-eks-gpu-ami-no-containerd/messages.txt", "journal or syslog text", ""},
      {"mattshma-150-cpu-manager-static-zh/devices.list", "cgroup v1 devices.list", ""},
      {"mattshma-150-cpu-manager-static-zh/nvidia-smi-in-pod.txt", "nvidia-smi -L or its NVML error", "container"},
      {"minikube-6912-driver-installer-failed/describe-plugin-pod.txt", "kubectl describe pod", ""},
      {"nct-1227-daemon-reload-host-vs-container/container-nvidia-smi-L.txt", "nvidia-smi -L or its NVML error",
       "container"},
      {"nct-1227-daemon-reload-host-vs-container/host-nvidia-smi-L.txt", "nvidia-smi -L or its NVML error", "host"},
      {"nvidia-docker-1246-driver-root-without-driver-container/nvidia-container-toolkit.log", "klog", ""},
      {"nvidia-docker-1671-daemon-reload-docker/nvidia-smi-after.txt", "nvidia-smi -L or its NVML error",
       "container"},
      {"nvidia-docker-1671-daemon-reload-docker/nvidia-smi-before.txt", "nvidia-smi table", "container"},
      {"nvidia-docker-182-api-mismatch-journal/journal.txt", "journal or syslog text", ""},
      {"nvsentinel-155-fallen-off-bus-no-xid/dmesg.txt", "dmesg", ""},
      {"ogkm-1150-xid45-after-nvlink-xid/kernel.txt", "journal or syslog text", ""},
      {"sextant-397-nvidia-uvm-missing-1.4-events/describe-pod-events.txt",
       "kubectl describe Events rows (Kubernetes 1.4)", ""},
      {"sichek-51-gsp-reset-required/dmesg.txt", "dmesg -T", ""},
      {"website-8668-docker-status-de-locale/systemctl-status-docker.txt", "systemctl status", ""},
      {"pytorch-35710-cuda-802-bandwidthtest/pytorch-error.txt", "", ""},
      {"nvidia-docker-676-selinux-insufficient-permissions/packages.txt", "", ""},
      {"ogkm-446-talos-a100-xid62-154-gsp-rpc-timeout/talos-dmesg-1.txt", "talosctl dmesg", ""},
      {"k8s-device-plugin-399-mig-monitor-devices-memory-info/plugin-error.txt", "device plugin output without stamps",
       ""},
      // NVML named by another tool: an strace of nvidia-smi in a pod, nvidia-docker 1.0's wrapper.
      {"nvidia-docker-966-cpu-manager-static-strace/strace-in-pod.txt", "", ""},
      {"nvidia-docker-584-stale-libnvidia-ml-symlink/nvidia-docker-run.txt", "", ""},
      {"k8s-device-plugin-990-time-slicing-config-not-applied/node-labels.txt", "kubectl describe node", ""},
      {"gpu-operator-2060-toolkit-1.14-containerd-v3-config/toolkit.log", "GPU Operator toolkit container log", ""},
      {"gpu-monitoring-tools-96-dcgm-exporter-gke-nvml-not-injected/dcgm-exporter.log", "", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.file);
    Recognised r = RecogniseInput(Corpus(c.file), BaseName(c.file));
    if (std::string(c.shape).empty()) {
      CHECK(r.shape == nullptr);
      continue;
    }
    REQUIRE(r.shape != nullptr);
    CHECK(r.shape->id == std::string_view(c.shape));
    if (std::string(c.view).empty()) continue;
    CHECK(ViewName(r.view.view) == std::string_view(c.view));
  }
}

TEST_CASE("RecogniseInput: a prompt before the output and the majority of lines decide, not the first line") {
  // A stray line from the previous paste does not make a plugin log of a node description.
  Recognised r = RecogniseInput(
      "2018/07/17 11:00:16 You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin\n"
      "Name:               gpu\nRoles:              <none>\nLabels:             beta.kubernetes.io/arch=amd64\n",
      "describe-node.txt");
  REQUIRE(r.shape != nullptr);
  CHECK(r.shape->id == std::string_view("kubectl describe node"));
  CHECK(r.shape->artifact == "k8s.node_text");
}

TEST_CASE("RecogniseInput: a grep of nvidia-smi -q for its Fabric sections is nvidia-smi -q") {
  Recognised r = RecogniseInput(
      "    Fabric\n        State                             : Completed\n"
      "        Status                            : Success\n--\n"
      "    Fabric\n        State                             : In Progress\n"
      "        Status                            : N/A\n",
      "fabric.txt");
  REQUIRE(r.shape != nullptr);
  CHECK(r.shape->id == std::string_view("nvidia-smi -q"));
  // The word alone, as another text may hold it, is not.
  Recognised other = RecogniseInput("Fabric manager log\nState: fine\n", "notes.txt");
  CHECK((other.shape == nullptr || other.shape->id != std::string_view("nvidia-smi -q")));
}

TEST_CASE("RecogniseInput: lines a terminal wrapped are joined again, the others left as they are") {
  // Copied from a 76-column terminal: two records ran past its width.
  Recognised r = RecogniseInput(
      "I1118 03:18:17.378000       1 main.go:317] Retrieving plugins.\n"
      "E1118 03:18:17.378842       1 factory.go:77] Failed to initialize NVML: ERRO\n"
      "R_UNKNOWN.\n"
      "I1118 03:18:17.379000       1 main.go:346] No devices found. Waiting indefin\n"
      "itely.\n",
      "plugin.log");
  REQUIRE(r.shape != nullptr);
  CHECK(r.shape->id == std::string_view("klog"));
  CHECK(r.saved.text ==
        "I1118 03:18:17.378000       1 main.go:317] Retrieving plugins.\n"
        "E1118 03:18:17.378842       1 factory.go:77] Failed to initialize NVML: ERROR_UNKNOWN.\n"
        "I1118 03:18:17.379000       1 main.go:346] No devices found. Waiting indefinitely.\n");
  // A record that happens to be the longest line, once, is no terminal's width.
  const std::string unwrapped =
      "E1118 03:18:17.378842       1 factory.go:77] Failed to initialize NVML: ERROR_UNKNOWN.\n"
      "  a note under it\n";
  CHECK(RecogniseInput(unwrapped, "plugin.log").saved.text == unwrapped);
  // Two records of the same longest length: a boot marker, an indented
  // line and a blank line after them stay lines of their own.
  const std::string journal =
      "Dec 06 10:00:01 gpu-node-1 kubelet[1705]: E1206 10:00:01.000000    1705 manager.go:1] same long line\n"
      "-- Boot 3f1c2d4e5a6b7c8d9e0f112233445566 --\n"
      "Dec 06 10:00:02 gpu-node-1 kubelet[1705]: E1206 10:00:02.000000    1705 manager.go:1] same long line\n"
      "    an indented continuation\n"
      "\n"
      "Dec 06 10:00:03 gpu-node-1 kubelet[1705]: I1206 10:00:03.000000    1705 manager.go:1] short\n";
  CHECK(RecogniseInput(journal, "kubelet.txt").saved.text == journal);
}

TEST_CASE("KlogWriter: a kubelet's klog is never taken for the device plugin's") {
  CHECK(KlogWriter(Corpus("k8s-124345-kubelet-event-klog/kubelet.log")) == "kubelet");
  CHECK(KlogWriter(Corpus("gpushare-156-listandwatch-grpc-too-large/kubelet-grep.txt")) == "kubelet");
  CHECK(KlogWriter(Corpus("cnd-gpu-operator-seven-of-eight-xid79/plugin.log")) == "plugin");
  CHECK(KlogWriter(Corpus("hami-1568-plugin-pod-not-on-nvidia-runtime/plugin.log")) == "plugin");
  CHECK(KlogWriter(Corpus("nvidia-docker-1246-driver-root-without-driver-container/nvidia-container-toolkit.log")) ==
        "toolkit");
  CHECK(KlogWriter(Corpus("k8s-device-plugin-33-gtx760-too-old-for-healthchecks/plugin.log")) == "plugin");
  CHECK(KlogWriter("I0101 00:00:00.000000       1 widget.go:1] hello\n") == "plugin");  // PID 1: a pod's process
  CHECK(KlogWriter("I0101 00:00:00.000000    4242 widget.go:1] hello\n") == "");
}

TEST_CASE("KlogWriter: a workload pod's nvidia-smi failure is not the device plugin's") {
  CHECK(KlogWriter("2024-05-01T10:00:00.123456789Z Failed to initialize NVML: Unknown Error\n"
                   "2024-05-01T10:00:01.223456789Z RuntimeError: No CUDA GPUs are available\n") == "");
  CHECK(KlogWriter("2024-05-01T10:00:00.123456789Z Failed to initialize NVML: Driver/library version mismatch\n"
                   "2024-05-01T10:00:00.123456789Z NVML library version: 535.129\n") == "");
  // The plugin's own wording ends its sentence, or comes under a log header.
  CHECK(KlogWriter("2024-05-01T10:00:00.123456789Z Failed to initialize NVML: could not load NVML library.\n") ==
        "plugin");
  CHECK(KlogWriter("2024-05-01T10:00:00.123456789Z 2024/05/01 10:00:00 Failed to initialize NVML: Unknown Error\n") ==
        "plugin");
  CHECK(KlogWriter(Corpus("k8s-device-plugin-23-v1.8-no-default-runtime/plugin.log")) == "plugin");
}

TEST_CASE("InputShapes: docs/inputs.md has a row with a real line for every shape") {
  std::ifstream in(test::SourcePath("docs/inputs.md"), std::ios::binary);
  REQUIRE(in.good());
  std::stringstream doc;
  doc << in.rdbuf();
  for (const auto& shape : InputShapes()) {
    CHECK_MESSAGE(doc.str().find("| `" + std::string(shape.id) + "` | ") != std::string::npos, shape.id);
  }
}

}  // TEST_SUITE

}  // namespace gpuf
