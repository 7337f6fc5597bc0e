#include "collector/collect_plan.h"

#include <cstdlib>
#include <map>
#include <sstream>

#include "collector/plugin_logs.h"
#include "collector/probe_table.h"
#include "collector/secrets.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/journal_slices.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

constexpr size_t kMaxPluginContainers = 16;
constexpr size_t kMaxCtrContainers = 128;
constexpr size_t kMaxPluginLogFiles = 48;

std::vector<std::string> SplitSpaces(std::string_view text) {  // small inputs only
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size()) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

std::vector<std::string> CrictlPrefix(const Plan& plan) {
  std::vector<std::string> argv = {"crictl"};
  if (!plan.options->runtime_endpoint.empty()) {
    argv.push_back("--runtime-endpoint");
    argv.push_back(plan.options->runtime_endpoint);
  }
  return argv;
}

std::vector<std::string> CtrPrefix(const Plan& plan) {
  std::vector<std::string> argv = {"ctr"};
  if (!plan.options->containerd_address.empty()) {
    argv.push_back("--address");
    argv.push_back(plan.options->containerd_address);
  }
  // Without it ctr waits on a socket nobody listens on until the probe's timeout.
  argv.push_back("--connect-timeout");
  argv.push_back("2s");
  argv.push_back("-n");
  argv.push_back("k8s.io");
  return argv;
}

void SkipUnreachable(ProbeTask& t, const std::string& why) {
  if (why.empty() || t.skip_reason) return;
  t.skip_reason = SkipReason::kNotFound;
  t.skip_detail = why;
}

ProbeTask CommandTask(std::string_view name, int phase, std::vector<std::string> argv, const Plan& plan) {
  ProbeTask t;
  t.name = std::string(name);
  t.kind = ProbeKind::kCommand;
  t.phase = phase;
  t.argv = std::move(argv);
  t.timeout_ns = plan.options->probe_timeout_ms * kMsToNs;
  return t;
}

ProbeTask FileTask(std::string_view name, int phase, std::string path, std::string instance) {
  ProbeTask t;
  t.name = std::string(name);
  t.kind = ProbeKind::kFile;
  t.phase = phase;
  t.paths = {std::move(path)};
  t.instance = std::move(instance);
  return t;
}

bool HasWildcard(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// "a|b|c": the one file of several places a platform may keep it, the first
// present; the first when none is, to be reported missing there. A place the
// secrets policy never reads (GKE keeps its kubelet's config under /home)
// is passed over: it could only be reported refused.
std::string FirstPresent(const HostRoot& host, const std::string& alternatives) {
  std::vector<std::string> paths;
  for (size_t start = 0; start <= alternatives.size();) {
    size_t bar = alternatives.find('|', start);
    paths.push_back(alternatives.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  for (const auto& path : paths) {
    if (!IsForbiddenHostPath(path) && host.Lstat(path).ok()) return path;
  }
  return paths.front();
}

void PlanStaticRow(const ProbeRow& row, const Plan& plan, std::vector<ProbeTask>& tasks) {
  const std::string target = ProbeTarget(row);
  if (row.kind == ProbeKind::kFile) {
    bool any = false;
    for (const auto& pattern : SplitSpaces(target)) {
      auto add = [&](const std::string& path, const std::string& instance) {
        ProbeTask t = FileTask(row.name, row.phase, path, instance);
        t.keep = row.keep;
        t.cap_bytes = row.cap_bytes;
        t.driver_read = row.driver_read;
        if (row.driver_read) t.timeout_ns = plan.options->probe_timeout_ms * kMsToNs;
        tasks.push_back(t);
        any = true;
      };
      if (pattern.find('|') != std::string::npos) {
        add(FirstPresent(*plan.host, pattern), "");
        continue;
      }
      if (!HasWildcard(pattern)) {
        add(pattern, "");
        continue;
      }
      for (const auto& path : ExpandHostGlob(*plan.host, pattern)) add(path, path);
    }
    if (!any) {
      ProbeTask t = FileTask(row.name, row.phase, target, "");
      t.skip_reason = SkipReason::kNotFound;
      t.skip_detail = "no file matches '" + target + "'";
      tasks.push_back(t);
    }
    return;
  }
  ProbeTask t;
  t.name = std::string(row.name);
  t.kind = row.kind;
  t.phase = row.phase;
  t.keep = row.keep;
  t.cap_bytes = row.cap_bytes;
  t.timeout_ns = plan.options->probe_timeout_ms * kMsToNs;
  if (row.kind != ProbeKind::kCommand) {
    t.paths = SplitSpaces(target);
    tasks.push_back(t);
    return;
  }
  std::string command = ReplaceAll(target, "{node}", plan.node);
  // In a pod, kubectl without --kubeconfig uses the pod's service account.
  if (plan.kubeconfig_in_cluster) command = ReplaceAll(command, "--kubeconfig {kubeconfig} ", "");
  command = ReplaceAll(command, "{kubeconfig}", plan.kubeconfig.empty() ? "-" : plan.kubeconfig);
  t.argv = SplitSpaces(command);
  if (t.argv[0] == "crictl" && !plan.options->runtime_endpoint.empty()) {
    t.argv.insert(t.argv.begin() + 1, {"--runtime-endpoint", plan.options->runtime_endpoint});
  }
  // crictl's default connection timeout is already short (2 s); its socket is checked all the same.
  if (t.argv[0] == "crictl" && plan.have_crictl && t.argv.back() != "--version") {
    SkipUnreachable(t, plan.crictl_unreachable);
  }
  if (row.needs_kubeconfig && plan.kubeconfig.empty() && !plan.kubeconfig_in_cluster) {
    t.skip_reason = SkipReason::kNotApplicable;
    t.skip_detail = "no kubeconfig (--kubeconfig, $KUBECONFIG, the kubelet's or the platform's) is available";
  } else if (row.needs_kubeconfig && plan.node.empty()) {
    // Without a name, `kubectl get node` would list every Node of the cluster.
    t.skip_reason = SkipReason::kNotApplicable;
    t.skip_detail = "no node name: --node, $NODE_NAME, the kubelet's flags and config, mirror pods, its journal "
                    "and the hostname gave none";
  }
  if (row.phase == kPhaseDriver && plan.options->no_driver) {
    t.skip_reason = SkipReason::kDisabled;
    t.skip_detail = "--no-driver: probes that touch the GPU driver are off";
  }
  tasks.push_back(t);
}

// Whether the host has a unit file for `unit` where systemd looks for them.
bool UnitInstalled(const Plan& plan, std::string_view unit) {
  for (const auto& dir : plan.unit_dirs) {
    if (plan.host->Lstat(dir + "/" + std::string(unit)).ok()) return true;
  }
  return false;
}

// The kubelet's log where the platform's kubelet writes a file instead of
// the journal: its newest lines, as a journal slice keeps them.
void PlanKubeletLogFile(const Plan& plan, std::vector<ProbeTask>& tasks) {
  if (plan.kubelet_log_file.empty()) return;
  ProbeTask t = FileTask(artifact::kHostKubeletLog, kPhasePassive, plan.kubelet_log_file, "");
  t.keep = KeepMode::kTail;
  t.cap_bytes = 64 * kMiB;
  tasks.push_back(t);
}

void PlanJournal(const Plan& plan, std::vector<ProbeTask>& tasks) {
  std::vector<std::string> base = {"journalctl"};
  for (const auto& arg : plan.exec->JournalRootArgs()) base.push_back(arg);
  ProbeTask boots = CommandTask(artifact::kBootListBoots, kPhasePassive, base, plan);
  boots.argv.insert(boots.argv.end(), {"--utc", "--no-pager", "--list-boots"});
  boots.extra_env = {"TZ=UTC"};
  tasks.push_back(boots);
  // Each boot's journal is read once, whole, and split here: a run per slice
  // would scan a journal of gigabytes once per slice, and journalctl's own
  // matching of every slice's terms costs more than the entries it spares.
  // Export, not JSON: journalctl formats it five times as fast.
  std::vector<std::string> slices;
  for (const auto& slice : JournalSliceTable()) {
    if (slice.only_where_installed && !UnitInstalled(plan, slice.unit)) continue;
    slices.push_back(std::string(slice.name));
  }
  for (auto boot : kJournalBoots) {
    ProbeTask t = CommandTask(slices.front(), kPhasePassive, base, plan);
    t.instance = "boot:" + std::string(boot);
    t.journal_slices = slices;
    // Newest first: a timeout or the cap then costs the oldest lines, never the failure.
    t.argv.insert(t.argv.end(), {"--no-pager", "-o", "export", "-r", "-b", std::string(boot)});
    t.keep = KeepMode::kNewestFirst;
    t.cap_bytes = 64 * kMiB;  // each slice's
    t.json_lines = true;
    t.timeout_ns = plan.options->journal_timeout_ms * kMsToNs;
    tasks.push_back(t);
  }
}

// Static pod manifests that mention the device plugin (vendor builds often
// run it as a static pod, whose config is evidence).
void PlanStaticPods(const Plan& plan, std::vector<ProbeTask>& tasks) {
  const std::string dir = "/etc/kubernetes/manifests";
  auto names = plan.host->ListDir(dir);
  if (!names.ok()) return;
  for (const auto& name : *names) {
    std::string path = JoinHostPath(dir, name);
    auto content = plan.host->ReadSmallFile(path, 4 * kMiB);
    if (!content.ok() || !re2::RE2::PartialMatch(*content, *plan.plugin_pattern)) continue;
    tasks.push_back(FileTask(artifact::kConfigStaticPod, kPhasePassive, path, path));
  }
}

void PlanPodLogs(const Plan& plan, std::vector<ProbeTask>& tasks) {
  std::vector<std::string> paths = PluginLogFiles(*plan.host, *plan.plugin_pattern);
  if (paths.size() > kMaxPluginLogFiles) paths.resize(kMaxPluginLogFiles);
  for (const auto& path : paths) {
    ProbeTask t = FileTask(artifact::kPluginLog, kPhasePassive, path, path);
    t.keep = KeepMode::kTail;
    t.cap_bytes = 32 * kMiB;
    tasks.push_back(t);
  }
}

// What a container's probes need to know of it.
struct ContainerContext {
  const PluginContainer* container = nullptr;
  int64_t pid = 0;
  bool running = false;
  std::string cgroup;  // its directory under /sys/fs/cgroup, "" unknown
  std::string scope;   // its systemd scope, "" when none
  bool log_file_present = false;
};

bool Applies(ContainerWhen when, const ContainerContext& c, const Plan& plan, bool v1_devices, bool v2) {
  switch (when) {
    case ContainerWhen::kCrictl: return plan.have_crictl;
    case ContainerWhen::kHasPid: return c.pid > 0;
    case ContainerWhen::kCgroupV1: return !c.cgroup.empty() && v1_devices;
    case ContainerWhen::kCgroupV2: return !c.cgroup.empty() && v2;
    case ContainerWhen::kSystemdScope: return !c.scope.empty();
    case ContainerWhen::kLogFileGone: return !c.log_file_present && plan.have_crictl;
    case ContainerWhen::kRunningCrictl: return c.running && plan.have_crictl;
    case ContainerWhen::kRunningCtr: return c.running && !plan.have_crictl;
  }
  return false;
}

// The row's target with the container's values in place.
std::vector<std::string> Expand(const ContainerProbeRow& row, const ContainerContext& c, const Plan& plan) {
  std::vector<std::string> words;
  for (const auto& word : SplitSpaces(row.target)) {
    if (word == "{crictl}") {
      for (auto& w : CrictlPrefix(plan)) words.push_back(std::move(w));
    } else if (word == "{ctr}") {
      for (auto& w : CtrPrefix(plan)) words.push_back(std::move(w));
    } else if (word == "{host_cgroup}") {
      words.push_back(plan.exec->HostPathArg("/sys/fs/cgroup/" + c.cgroup));
    } else {
      std::string w = ReplaceAll(word, "{id}", c.container->id);
      w = ReplaceAll(w, "{pid}", std::to_string(c.pid));
      w = ReplaceAll(w, "{cgroup}", c.cgroup);
      words.push_back(ReplaceAll(w, "{scope}", c.scope));
    }
  }
  return words;
}

// The rows of `phase` that apply to the container, as tasks.
void PlanContainerRows(int phase, const ContainerContext& c, const Plan& plan, bool v1_devices, bool v2,
                       std::vector<ProbeTask>& tasks) {
  for (const auto& row : ContainerProbes()) {
    if (row.phase != phase || !Applies(row.when, c, plan, v1_devices, v2)) continue;
    std::vector<std::string> words = Expand(row, c, plan);
    ProbeTask t = row.kind == ProbeKind::kFile ? FileTask(row.name, phase, words.at(0), "")
                                                : CommandTask(row.name, phase, std::move(words), plan);
    t.instance = c.container->id;
    t.context = "container";
    t.container_id = c.container->id;
    t.keep = row.keep;
    t.cap_bytes = row.cap_bytes;
    t.stderr_cap_bytes = row.stderr_cap_bytes;
    if (phase == kPhaseDriver && plan.options->no_driver) {
      t.skip_reason = SkipReason::kDisabled;
      t.skip_detail = "--no-driver: probes that touch the GPU driver are off";
    }
    tasks.push_back(std::move(t));
  }
}

const ProbeResult* FindResult(const std::vector<ProbeResult>& results, std::string_view name,
                              std::string_view instance = {}) {
  for (const auto& r : results) {
    if (r.artifact.name == name && r.artifact.instance == instance) return &r;
  }
  return nullptr;
}

// "TASK  PID  STATUS" rows of `ctr tasks ls`.
std::map<std::string, int64_t> RunningCtrTasks(const std::string& text) {
  std::map<std::string, int64_t> running;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto words = SplitSpaces(line);
    if (words.size() >= 3 && words[2] == "RUNNING") {
      running[words[0]] = std::atoll(words[1].c_str());
    }
  }
  return running;
}

}  // namespace

std::string ReadStaged(const ProbeResult& result, std::string_view stream) {
  for (const auto& staged : result.staged) {
    if (staged.stream != stream) continue;
    auto data = ReadWholeFile(staged.staging_path);
    return data.ok() ? std::move(*data) : "";
  }
  return "";
}

std::vector<ProbeTask> PlanPhaseOne(const Plan& plan) {
  std::vector<ProbeTask> tasks;
  for (const auto& row : StaticProbes()) {
    // What came with --node-object is stored instead (supplied_node.h): the
    // Node, and its events and pods when they came with it.
    if (plan.options->node_object && plan.options->node_object->Carries(row.name)) continue;
    if (row.phase == kPhasePassive) PlanStaticRow(row, plan, tasks);
  }
  PlanJournal(plan, tasks);
  PlanKubeletLogFile(plan, tasks);
  PlanStaticPods(plan, tasks);
  PlanPodLogs(plan, tasks);
  if (!plan.have_crictl && plan.have_ctr) {
    std::vector<std::string> ls = CtrPrefix(plan);
    ls.insert(ls.end(), {"containers", "ls", "-q"});
    tasks.push_back(CommandTask(artifact::kRuntimeCtrContainers, kPhasePassive, ls, plan));
    SkipUnreachable(tasks.back(), plan.ctr_unreachable);
    std::vector<std::string> tasks_ls = CtrPrefix(plan);
    tasks_ls.insert(tasks_ls.end(), {"tasks", "ls"});
    tasks.push_back(CommandTask(artifact::kRuntimeCtrTasks, kPhasePassive, tasks_ls, plan));
    SkipUnreachable(tasks.back(), plan.ctr_unreachable);
  }
  return tasks;
}

std::vector<ProbeTask> PlanPhaseTwo(const Plan& plan, const std::vector<ProbeResult>& phase_one,
                                    std::vector<PluginContainer>& containers) {
  std::vector<ProbeTask> tasks;
  if (plan.have_crictl) {
    if (const ProbeResult* ps = FindResult(phase_one, artifact::kRuntimeCrictlPs)) {
      containers = PluginContainersFromCrictlPs(ReadStaged(*ps, kStreamStdout), *plan.plugin_pattern,
                                                kMaxPluginContainers);
    }
    for (const auto& c : containers) {
      PlanContainerRows(kPhaseRuntime, ContainerContext{&c}, plan, false, false, tasks);
    }
  } else if (plan.have_ctr) {
    if (const ProbeResult* ls = FindResult(phase_one, artifact::kRuntimeCtrContainers)) {
      for (const auto& id : IdsFromCtrList(ReadStaged(*ls, kStreamStdout), kMaxCtrContainers)) {
        std::vector<std::string> argv = CtrPrefix(plan);
        argv.insert(argv.end(), {"containers", "info", id});
        ProbeTask t = CommandTask(artifact::kRuntimeCtrContainerInfo, kPhaseRuntime, argv, plan);
        t.instance = id;
          tasks.push_back(t);
      }
    }
  }
  return tasks;
}

std::vector<Discovered> DiscoverFromPhaseTwo(const Plan& plan, const std::vector<ProbeResult>& phase_one,
                                             const std::vector<ProbeResult>& phase_two,
                                             const std::vector<PluginContainer>& containers) {
  std::vector<Discovered> found;
  if (plan.have_crictl) {
    for (const auto& c : containers) {
      Discovered d{c, {}};
      if (const ProbeResult* inspect = FindResult(phase_two, artifact::kPluginInspect, c.id)) {
        d.facts = ContainerFactsFromInspect(ReadStaged(*inspect, kStreamStdout));
      }
      d.facts.running = d.facts.running || c.state == "CONTAINER_RUNNING";
      found.push_back(d);
    }
    return found;
  }
  std::map<std::string, int64_t> running;
  if (const ProbeResult* t = FindResult(phase_one, artifact::kRuntimeCtrTasks)) {
    running = RunningCtrTasks(ReadStaged(*t, kStreamStdout));
  }
  for (const auto& r : phase_two) {
    Discovered d;
    if (!PluginContainerFromCtrInfo(ReadStaged(r, kStreamStdout), *plan.plugin_pattern, d.container)) continue;
    d.facts = ContainerFactsFromInspect(ReadStaged(r, kStreamStdout));
    auto it = running.find(d.container.id);
    if (it != running.end()) {
      d.facts.running = true;
      d.facts.pid = it->second;
    }
    found.push_back(d);
    if (found.size() >= kMaxPluginContainers) break;
  }
  return found;
}

namespace {

// "2201     cgroup_device   multi           sd_devices": the ids of the
// device programs in `bpftool cgroup list` (older bpftool says "device").
std::vector<std::string> DeviceProgramIds(const std::string& listing) {
  std::vector<std::string> ids;
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    auto words = SplitSpaces(line);
    if (words.size() < 2 || (words[1] != "cgroup_device" && words[1] != "device")) continue;
    if (words[0].find_first_not_of("0123456789") == std::string::npos) ids.push_back(words[0]);
  }
  return ids;
}

}  // namespace

std::vector<ProbeTask> PlanDeviceProgramDumps(const Plan& plan, const std::vector<ProbeResult>& phase_three) {
  std::vector<ProbeTask> tasks;
  for (const auto& r : phase_three) {
    const ManifestArtifact& a = r.artifact;
    if (a.name != artifact::kPluginBpftoolCgroup || a.status != ProbeStatus::kOk) continue;
    for (const auto& id : DeviceProgramIds(ReadStaged(r, kStreamStdout))) {
      ProbeTask t = CommandTask(artifact::kPluginBpfDeviceProgram, kPhaseContainer,
                                {"bpftool", "prog", "dump", "xlated", "id", id}, plan);
      t.instance = a.container_id + "/" + id;
      t.context = "container";
      t.container_id = a.container_id;
      tasks.push_back(std::move(t));
    }
  }
  return tasks;
}

std::vector<ProbeTask> PlanPhaseThree(const Plan& plan, const std::vector<Discovered>& containers) {
  std::vector<ProbeTask> tasks;
  const bool v1_devices = plan.host->Lstat("/sys/fs/cgroup/devices").ok();
  const bool v2 = plan.host->Lstat("/sys/fs/cgroup/cgroup.controllers").ok();
  for (const auto& d : containers) {
    ContainerContext c{&d.container, d.facts.pid, d.facts.running};
    std::string proc_cgroup;
    if (d.facts.pid > 0) {
      auto text = plan.host->ReadSmallFile("/proc/" + std::to_string(d.facts.pid) + "/cgroup");
      if (text.ok()) proc_cgroup = *text;
    }
    // An exited container's cgroup is gone; its logs are not.
    const bool has_cgroup = d.facts.running || d.facts.pid > 0;
    c.cgroup = has_cgroup ? ContainerCgroupDir(proc_cgroup, d.facts.cgroups_path) : "";
    c.scope = SystemdScopeOf(c.cgroup);
    c.log_file_present = !d.facts.log_path.empty() && plan.host->Lstat(d.facts.log_path).ok();
    PlanContainerRows(kPhaseContainer, c, plan, v1_devices, v2, tasks);
  }
  return tasks;
}

std::vector<ProbeTask> PlanHostDriverProbes(const Plan& plan) {
  std::vector<ProbeTask> tasks;
  for (const auto& row : StaticProbes()) {
    if (row.phase == kPhaseDriver) PlanStaticRow(row, plan, tasks);
  }
  return tasks;
}

std::vector<ProbeTask> PlanContainerDriverProbes(const Plan& plan, const std::vector<Discovered>& containers) {
  std::vector<ProbeTask> tasks;
  for (const auto& d : containers) {
    PlanContainerRows(kPhaseDriver, ContainerContext{&d.container, d.facts.pid, d.facts.running}, plan, false, false,
                      tasks);
  }
  return tasks;
}

}  // namespace gpuf
