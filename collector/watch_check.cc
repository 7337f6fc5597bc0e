#include "collector/watch_check.h"

#include <re2/re2.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "chain/plugin_since_start.h"
#include "collector/nvidia_pci.h"
#include "collector/plugin_logs.h"
#include "common/byte_pattern.h"
#include "common/pci_role.h"
#include "common/text_lines.h"
#include "formats/kube_node.h"

namespace gpuf {

namespace {

constexpr char kPluginDir[] = "/var/lib/kubelet/device-plugins";
constexpr int64_t kLogTailBytes = 1 << 20;

int64_t MtimeNs(const DirEntryInfo& e) {
  return static_cast<int64_t>(e.st.st_mtim.tv_sec) * 1000000000LL + e.st.st_mtim.tv_nsec;
}

int CountPciGpus(const HostRoot& host) {
  int gpus = 0;
  for (const auto& f : ReadNvidiaPciFunctions(host)) gpus += PciRole(f.pci_class) == "gpu";
  return gpus;
}

void CheckSockets(const HostRoot& host, ChainCheck& check) {
  auto names = host.ListDir(kPluginDir);
  if (!names.ok()) return;
  for (const auto& name : *names) {
    auto entry = host.Lstat(std::string(kPluginDir) + "/" + name);
    if (!entry.ok() || !S_ISSOCK(entry->st.st_mode)) continue;
    int64_t mtime = MtimeNs(*entry);
    if (name == "kubelet.sock") {
      check.kubelet_sock_mtime_ns = mtime;
    } else if (!check.plugin_sock_mtime_ns || mtime > *check.plugin_sock_mtime_ns) {
      check.plugin_sock_mtime_ns = mtime;
    }
  }
}

std::optional<ChainFacts::Driver> ReadDriver(const HostRoot& host) {
  auto version = host.ReadSmallFile("/proc/driver/nvidia/version", 64 << 10);
  if (!version.ok()) {
    if (version.status().code() == Status::Code::kNotFound) return ChainFacts::Driver{false, "", 0};
    return std::nullopt;
  }
  ChainFacts::Driver driver{true, "", 0};
  if (auto gpus = host.ListDir("/proc/driver/nvidia/gpus"); gpus.ok()) driver.gpus = static_cast<int64_t>(gpus->size());
  return driver;
}

// Character devices /dev/nvidiaN and /dev/nvidiactl, by lstat alone.
std::optional<ChainFacts::DeviceNodes> ReadDeviceNodes(const HostRoot& host) {
  auto names = host.ListDir("/dev");
  if (!names.ok()) return std::nullopt;
  static const RE2 gpu_node(R"(nvidia\d+)", BytePatternOptions());
  ChainFacts::DeviceNodes nodes;
  for (const auto& name : *names) {
    bool gpu = RE2::FullMatch(name, gpu_node);
    if (!gpu && name != "nvidiactl") continue;
    auto entry = host.Lstat("/dev/" + name);
    if (!entry.ok() || !S_ISCHR(entry->st.st_mode)) continue;
    if (gpu) ++nodes.gpus;
    if (!gpu) nodes.ctl = true;
  }
  return nodes;
}

int64_t BootStartNs(const HostRoot& host) {
  auto stat = host.ReadSmallFile("/proc/stat", 1 << 20);
  int64_t start = 0;
  if (!stat.ok()) return start;
  ForEachLine(*stat, [&](int, std::string_view line) {
    if (line.substr(0, 6) == "btime ") start = std::atoll(std::string(line.substr(6)).c_str()) * 1000000000LL;
  });
  return start;
}

// The plugin's pod logs (rotated .gz ones aside), each read from its last MiB.
ChainFacts::Plugin ReadPlugin(const HostRoot& host, const re2::RE2& pattern, int64_t boot_start_ns) {
  std::vector<std::string> texts;
  for (const auto& path : PluginLogFiles(host, pattern)) {
    auto entry = host.Lstat(path);
    if (!entry.ok() || !S_ISREG(entry->st.st_mode) || path.find(".gz") != std::string::npos) continue;
    auto text = host.ReadSmallFile(path, 64LL << 20);
    if (!text.ok()) continue;
    if (text->size() > kLogTailBytes) {
      size_t cut = text->find('\n', text->size() - kLogTailBytes);
      *text = cut == std::string::npos ? "" : text->substr(cut + 1);
    }
    texts.push_back(std::move(*text));
  }
  std::vector<PluginLogSource> sources;
  for (const auto& text : texts) sources.push_back({PluginLogSource::Format::kContainerLog, text});
  return ReadPluginSinceStart(sources, boot_start_ns);
}

// What each failed step is called in the incident key and the state file.
const char* ProblemOf(ChainStepId step) {
  switch (step) {
    case ChainStepId::kDriver: return "driver_sees_fewer_gpus_than_pci";
    case ChainStepId::kDeviceNodes: return "device_nodes_missing";
    case ChainStepId::kPluginNvml: return "plugin_nvml_init_failed";
    case ChainStepId::kRegistration: return "plugin_not_registered";
    case ChainStepId::kNodeResources: return "allocatable_below_gpus";
    default: return nullptr;  // steps watch does not read
  }
}

void Judge(ChainCheck& check) {
  check.steps = JudgeChain(check.facts);
  check.problems.clear();
  check.registered.reset();
  for (const auto& step : check.steps) {
    if (step.id == ChainStepId::kRegistration) {
      if (step.status != StepStatus::kUnknown) check.registered = step.status == StepStatus::kOk;
      // The sockets say what the log may not: a plugin that never served,
      // or one that did not serve again after kubelet restarted.
      if (!check.plugin_sock_mtime_ns) {
        check.problems.push_back("plugin_socket_missing");
      } else if (check.kubelet_sock_mtime_ns && *check.plugin_sock_mtime_ns < *check.kubelet_sock_mtime_ns) {
        check.problems.push_back("plugin_socket_older_than_kubelet_sock");
      }
    }
    if (step.status != StepStatus::kFailed) continue;
    if (const char* problem = ProblemOf(step.id)) check.problems.push_back(problem);
  }
}

}  // namespace

std::string ChainCheck::IncidentKey() const {
  std::string key = boot_id;
  for (const auto& p : problems) key += "|" + p;
  key += "|kubelet.sock@" + (kubelet_sock_mtime_ns ? std::to_string(*kubelet_sock_mtime_ns) : std::string("-"));
  return key;
}

ChainCheck CheckChain(const HostRoot& host, const re2::RE2& plugin_pattern) {
  ChainCheck check;
  if (auto id = host.ReadSmallFile("/proc/sys/kernel/random/boot_id", 128); id.ok()) {
    check.boot_id = TrimRight(*id, " \r\n");
  }
  check.pci_readable = host.ListDir("/sys/bus/pci/devices").ok();
  check.pci_gpus = CountPciGpus(host);
  if (auto gpus = host.ListDir("/proc/driver/nvidia/gpus"); gpus.ok()) {
    check.driver_gpus = static_cast<int>(gpus->size());
  }
  if (check.pci_gpus == 0) return check;  // not a GPU node: nothing can be broken
  CheckSockets(host, check);
  const int64_t boot_start_ns = BootStartNs(host);
  ChainFacts& f = check.facts;
  f.pci_gpus = check.pci_gpus;
  f.driver = ReadDriver(host);
  f.device_nodes = ReadDeviceNodes(host);
  f.kubelet_sock = check.kubelet_sock_mtime_ns.has_value();
  if (check.kubelet_sock_mtime_ns && *check.kubelet_sock_mtime_ns >= boot_start_ns) {
    f.kubelet_restarted_ns = check.kubelet_sock_mtime_ns;
  }
  f.plugin = ReadPlugin(host, plugin_pattern, boot_start_ns);
  Judge(check);
  return check;
}

void CheckAllocatable(ChainCheck& check, const std::string& node_json) {
  if (!nlohmann::json::accept(node_json)) return;
  ChainFacts::Node node = NodeGpuResources(ParseNodeResources(node_json));
  check.allocatable = node.gpu_allocatable.value_or("");
  if (check.pci_gpus == 0) return;
  check.facts.node = node;
  Judge(check);
}

}  // namespace gpuf
