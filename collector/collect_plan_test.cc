// Planning without running anything: a host root in a temporary directory,
// the discovered containers and phase results as values, the tasks checked
// word for word (the seam ninja's tests get from their CommandRunner).
#include "collector/collect_plan.h"
#include "collector/secrets.h"

#include <doctest/doctest.h>

#include <map>

#include "tests/test_support.h"

namespace gpuf {

namespace {

const std::string kId = "3f9a2c1d8e7b60a4c9d2e1f0a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6";

struct Planned {
  test::TempDir dir;
  CollectOptions options;
  std::unique_ptr<HostRoot> host;
  std::unique_ptr<HostExec> exec;
  Plan plan;

  explicit Planned(bool crictl) {
    options.root = dir.path();
    options.runtime_endpoint = "unix:///run/containerd/containerd.sock";
    plan.options = &options;
    plan.have_crictl = crictl;
    plan.have_ctr = !crictl;
  }
  void Open() {
    auto root = HostRoot::Open(dir.path());
    REQUIRE(root.ok());
    host = std::make_unique<HostRoot>(std::move(*root));
    exec = std::make_unique<HostExec>(ExecMode::kPath, *host, "/usr/bin:/bin");
    plan.host = host.get();
    plan.exec = exec.get();
  }
  void File(const std::string& path, const std::string& text) { test::WriteFile(dir / path.substr(1), text); }
};

std::string Words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& w : argv) out += (out.empty() ? "" : " ") + w;
  return out;
}

Discovered Running(int64_t pid) {
  Discovered d;
  d.container.id = kId;
  d.container.state = "CONTAINER_RUNNING";
  d.facts.pid = pid;
  d.facts.running = true;
  d.facts.log_path = "/var/log/pods/kube-system_nvidia-device-plugin-x_uid/nvidia-device-plugin-ctr/0.log";
  return d;
}

}  // namespace

TEST_SUITE("collect_plan") {

TEST_CASE("PlanPhaseThree: cgroup v2 under a systemd scope, the log file gone: bpftool, the scope, crictl logs") {
  Planned p(true);
  p.File("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  const std::string scope = "cri-containerd-" + kId + ".scope";
  p.File("/proc/4242/cgroup", "0::/kubepods.slice/kubepods-besteffort.slice/" + scope + "\n");
  p.Open();
  auto tasks = PlanPhaseThree(p.plan, {Running(4242)});
  REQUIRE(tasks.size() == 4);
  CHECK(tasks[0].name == "plugin.proc_cgroup");
  CHECK(tasks[0].paths == std::vector<std::string>{"/proc/4242/cgroup"});
  CHECK(tasks[1].name == "plugin.bpftool_cgroup");
  CHECK(Words(tasks[1].argv) ==
        "bpftool cgroup list " + p.dir.path() + "/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/" + scope);
  CHECK(tasks[2].name == "plugin.systemd_scope");
  CHECK(Words(tasks[2].argv) ==
        "systemctl show --no-pager -p DeviceAllow -p DevicePolicy -p NeedDaemonReload " + scope);
  CHECK(tasks[3].name == "plugin.crictl_logs");
  CHECK(Words(tasks[3].argv) == "crictl --runtime-endpoint unix:///run/containerd/containerd.sock logs --timestamps " + kId);
  CHECK(tasks[3].keep == KeepMode::kTail);
  CHECK(tasks[3].stderr_cap_bytes == 32 * kMiB);
  for (const auto& t : tasks) {
    CHECK(t.instance == kId);
    CHECK(t.context == "container");
    CHECK(t.container_id == kId);
    CHECK(t.phase == kPhaseContainer);
  }
}

TEST_CASE("PlanPhaseThree: cgroup v1 with the log file present: devices.list, no crictl logs") {
  Planned p(true);
  p.File("/sys/fs/cgroup/devices/devices.list", "a *:* rwm\n");
  p.File("/proc/77/cgroup", "11:devices:/kubepods/besteffort/poduid/" + kId + "\n");
  p.File("/var/log/pods/kube-system_nvidia-device-plugin-x_uid/nvidia-device-plugin-ctr/0.log", "");
  p.Open();
  auto tasks = PlanPhaseThree(p.plan, {Running(77)});
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].name == "plugin.proc_cgroup");
  CHECK(tasks[1].name == "plugin.devices_list");
  CHECK(tasks[1].paths == std::vector<std::string>{"/sys/fs/cgroup/devices/kubepods/besteffort/poduid/" + kId +
                                                   "/devices.list"});
}

TEST_CASE("PlanContainerDriverProbes: nvidia-smi -L in each running container, through crictl or ctr") {
  Planned crictl(true);
  crictl.Open();
  Discovered stopped = Running(0);
  stopped.facts.running = false;
  auto tasks = PlanContainerDriverProbes(crictl.plan, {Running(1), stopped});
  REQUIRE(tasks.size() == 1);
  CHECK(tasks[0].name == "plugin.nvidia_smi_list");
  CHECK(tasks[0].phase == kPhaseDriver);
  CHECK(Words(tasks[0].argv) ==
        "crictl --runtime-endpoint unix:///run/containerd/containerd.sock exec " + kId + " nvidia-smi -L");

  Planned ctr(false);
  ctr.options.containerd_address = "/run/k3s/containerd/containerd.sock";
  ctr.options.no_driver = true;
  ctr.Open();
  tasks = PlanContainerDriverProbes(ctr.plan, {Running(1)});
  REQUIRE(tasks.size() == 1);
  CHECK(Words(tasks[0].argv) == "ctr --address /run/k3s/containerd/containerd.sock --connect-timeout 2s -n k8s.io tasks exec --exec-id "
                                "gpuforensics-nvidia-smi " + kId + " nvidia-smi -L");
  CHECK(tasks[0].skip_reason == SkipReason::kDisabled);
}

TEST_CASE("PlanPhaseOne: a file a platform keeps elsewhere is read where it is, once, under one name") {
  Planned p(true);
  p.File("/var/lib/rancher/rke2/agent/etc/containerd/config.toml", "version = 2\n");
  p.File("/etc/kubernetes/kubelet/config.json", "{}\n");
  p.Open();
  p.plan.plugin_pattern = std::make_unique<re2::RE2>(std::string(kDefaultPluginPattern));  // the pod logs' search
  std::map<std::string, std::vector<std::string>> paths;
  for (const auto& t : PlanPhaseOne(p.plan)) {
    if (t.name.rfind("config.", 0) == 0) paths[t.name].insert(paths[t.name].end(), t.paths.begin(), t.paths.end());
  }
  CHECK(paths["config.containerd"] == std::vector<std::string>{"/var/lib/rancher/rke2/agent/etc/containerd/config.toml"});
  CHECK(paths["config.kubelet"] == std::vector<std::string>{"/etc/kubernetes/kubelet/config.json"});
  // Present nowhere: the first place, which the probe reports missing.
  CHECK(paths["config.nvidia_container_runtime"] == std::vector<std::string>{"/etc/nvidia-container-runtime/config.toml"});
}

TEST_CASE("PlanPhaseOne: the platform table's places are the alternatives, a place never read passed over") {
  std::map<std::string, std::vector<std::string>> paths;
  auto plan = [&](const std::vector<std::string>& files) {
    Planned p(true);
    for (const auto& f : files) p.File(f, "kind: KubeletConfiguration\n");
    p.Open();
    p.plan.plugin_pattern = std::make_unique<re2::RE2>(std::string(kDefaultPluginPattern));
    paths.clear();
    for (const auto& t : PlanPhaseOne(p.plan)) {
      if (t.name == "config.kubelet") paths[t.name].insert(paths[t.name].end(), t.paths.begin(), t.paths.end());
    }
  };
  // Bottlerocket's, from its row of common/platforms.cc.
  plan({"/etc/kubernetes/kubelet/config"});
  CHECK(paths["config.kubelet"] == std::vector<std::string>{"/etc/kubernetes/kubelet/config"});
  // GKE keeps it under /home, which the secrets policy never reads.
  plan({"/home/kubernetes/kubelet-config.yaml"});
  CHECK(paths["config.kubelet"] == std::vector<std::string>{"/var/lib/kubelet/config.yaml"});
}

TEST_CASE("PlanDeviceProgramDumps: each device program bpftool lists on a container's cgroup, dumped") {
  Planned p(true);
  p.Open();
  test::TempDir staging;
  test::WriteFile(staging / "1.stdout",
                  "ID       AttachType      AttachFlags     Name           \n"
                  "2296     cgroup_device   multi                          \n"
                  "3247     device          multi           sd_devices     \n"
                  "3301     ingress                                        \n");
  ProbeResult listed;
  listed.artifact.name = "plugin.bpftool_cgroup";
  listed.artifact.status = ProbeStatus::kOk;
  listed.artifact.container_id = kId;
  listed.staged.push_back({"stdout", staging / "1.stdout"});
  ProbeResult failed = listed;
  failed.artifact.status = ProbeStatus::kNonzeroExit;
  auto tasks = PlanDeviceProgramDumps(p.plan, {listed, failed});
  REQUIRE(tasks.size() == 2);
  CHECK(Words(tasks[0].argv) == "bpftool prog dump xlated id 2296");
  CHECK(tasks[0].name == "plugin.bpf_device_program");
  CHECK(tasks[0].instance == kId + "/2296");
  CHECK(tasks[0].container_id == kId);
  CHECK(tasks[0].context == "container");
  CHECK(Words(tasks[1].argv) == "bpftool prog dump xlated id 3247");
}

TEST_CASE("PlanPhaseTwo: crictl inspects each plugin container of crictl's listing") {
  Planned p(true);
  p.Open();
  re2::RE2::Options options;
  options.set_case_sensitive(false);
  p.plan.plugin_pattern = std::make_unique<re2::RE2>(std::string(kDefaultPluginPattern), options);
  p.File("/staged-ps", R"({"containers":[{"id":")" + kId + R"(","metadata":{"name":"nvidia-device-plugin-ctr"},)"
                        R"("state":"CONTAINER_RUNNING","createdAt":"1","labels":{"io.kubernetes.pod.name":"x",)"
                        R"("io.kubernetes.pod.namespace":"kube-system"}}]})");
  ProbeResult ps;
  ps.artifact.name = "runtime.crictl_ps";
  ps.staged.push_back({"stdout", p.dir / "staged-ps"});
  std::vector<PluginContainer> containers;
  auto tasks = PlanPhaseTwo(p.plan, {ps}, containers);
  REQUIRE(containers.size() == 1);
  REQUIRE(tasks.size() == 1);
  CHECK(tasks[0].name == "plugin.inspect");
  CHECK(Words(tasks[0].argv) ==
        "crictl --runtime-endpoint unix:///run/containerd/containerd.sock inspect -o json " + kId);
  CHECK(RedactionFor(tasks[0].name) == Redaction::kRuntimeJson);
}

}  // TEST_SUITE

}  // namespace gpuf
