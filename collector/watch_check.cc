#include "collector/watch_check.h"

#include <re2/re2.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "collector/capped_file.h"
#include "collector/nvidia_pci.h"
#include "collector/plugin_logs.h"
#include "common/pci_role.h"
#include "common/plugin_phrases.h"
#include "common/text_lines.h"

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

// The newest plugin log file (rotated .gz ones aside): the running
// instance's log.
std::string CurrentPluginLog(const HostRoot& host, const re2::RE2& pattern) {
  std::string newest;
  int64_t newest_mtime = 0;
  for (const auto& path : PluginLogFiles(host, pattern)) {
    auto entry = host.Lstat(path);
    if (!entry.ok() || !S_ISREG(entry->st.st_mode) || path.find(".gz") != std::string::npos) continue;
    if (MtimeNs(*entry) >= newest_mtime) {
      newest_mtime = MtimeNs(*entry);
      newest = path;
    }
  }
  return newest;
}

template <typename Needles>
size_t LastOf(const std::string& text, const Needles& needles) {
  size_t last = std::string::npos;
  for (std::string_view needle : needles) {
    size_t at = text.rfind(needle);
    if (at != std::string::npos && (last == std::string::npos || at > last)) last = at;
  }
  return last;
}

// Registered since the plugin last failed or restarted its plugins (the
// wording of every plugin version; known-issues §2).
std::optional<bool> RegisteredInLog(const HostRoot& host, const std::string& path) {
  auto text = host.ReadSmallFile(path, 64LL << 20);
  if (!text.ok()) return std::nullopt;
  std::string tail = text->size() > kLogTailBytes ? text->substr(text->size() - kLogTailBytes) : *text;
  size_t registered = LastOf(tail, kPluginRegisteredPhrases);
  size_t setback = LastOf(tail, kPluginSetbackPhrases);
  if (registered == std::string::npos) return false;
  return setback == std::string::npos || registered > setback;
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
  check.pci_gpus = CountPciGpus(host);
  if (auto gpus = host.ListDir("/proc/driver/nvidia/gpus"); gpus.ok()) {
    check.driver_gpus = static_cast<int>(gpus->size());
  }
  if (check.pci_gpus == 0) return check;  // not a GPU node: nothing can be broken
  CheckSockets(host, check);
  check.plugin_log = CurrentPluginLog(host, plugin_pattern);
  if (!check.plugin_log.empty()) check.registered = RegisteredInLog(host, check.plugin_log);

  if (check.driver_gpus < check.pci_gpus) check.problems.push_back("driver_sees_fewer_gpus_than_pci");
  if (!check.plugin_sock_mtime_ns) {
    check.problems.push_back("plugin_socket_missing");
  } else if (check.kubelet_sock_mtime_ns && *check.plugin_sock_mtime_ns < *check.kubelet_sock_mtime_ns) {
    check.problems.push_back("plugin_socket_older_than_kubelet_sock");
  }
  if (check.registered && !*check.registered) check.problems.push_back("plugin_not_registered");
  return check;
}

void CheckAllocatable(ChainCheck& check, const std::string& node_json) {
  auto doc = nlohmann::json::parse(node_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return;
  auto pointer = nlohmann::json::json_pointer("/status/allocatable/nvidia.com~1gpu");
  std::string allocatable = doc.contains(pointer) && doc.at(pointer).is_string() ? doc.at(pointer).get<std::string>()
                                                                                  : "";
  check.allocatable = allocatable;
  // Under the MIG mixed strategy GPUs are advertised as nvidia.com/mig-*.
  auto resources = nlohmann::json::json_pointer("/status/allocatable");
  if (doc.contains(resources) && doc.at(resources).is_object()) {
    for (const auto& [name, quantity] : doc.at(resources).items()) {
      if (name.rfind("nvidia.com/mig-", 0) == 0 && quantity.is_string() && quantity.get<std::string>() != "0") return;
    }
  }
  int expected = std::max(check.driver_gpus, 1);
  if (check.pci_gpus > 0 && (allocatable.empty() || std::atoi(allocatable.c_str()) < expected)) {
    check.problems.push_back("allocatable_below_gpus");
  }
}

}  // namespace gpuf
