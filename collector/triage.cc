#include "collector/triage.h"

#include <re2/re2.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include "chain/plugin_since_start.h"
#include "collector/discovery.h"
#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/journal_slices.h"
#include "common/pci_role.h"
#include "common/text_lines.h"
#include "common/vocabulary.h"
#include "formats/kube_node.h"
#include "formats/nvidia_smi_list.h"

namespace gpuf {

namespace {

constexpr size_t kMaxPluginContainers = 16;

bool Is(const ManifestArtifact& a, ProbeStatus status) { return a.status == status; }

// What runc and crictl say when the command does not exist in the image
// (distroless plugin images without the toolkit's utility injection).
bool IsExecutableMissing(std::string_view said) {
  return said.find("executable file not found") != std::string_view::npos ||
         said.find("no such file or directory") != std::string_view::npos;
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  ..." -> "535.161.07".
std::string DriverVersion(std::string_view text) {
  std::string version;
  static const RE2 number(R"(\b(\d+\.\d+(?:\.\d+)?)\b)", BytePatternOptions());
  RE2::PartialMatch(re2::StringPiece(FirstLine(text)), number, &version);
  return version;
}

// "btime 1763435000" of /proc/stat, in ns; 0 when absent.
int64_t BootStartNs(std::string_view proc_stat) {
  int64_t start = 0;
  ForEachLine(proc_stat, [&](int, std::string_view line) {
    if (line.substr(0, 6) == "btime ") start = std::atoll(std::string(line.substr(6)).c_str()) * 1000000000LL;
  });
  return start;
}

// The /dev/nvidia* listing (schema/bundle.md): path, type, ..., mtime_ns.
ChainFacts::DeviceNodes DeviceNodesIn(std::string_view listing) {
  static const RE2 gpu_node(R"(/dev/nvidia\d+)", BytePatternOptions());
  ChainFacts::DeviceNodes nodes;
  ForEachLine(listing, [&](int, std::string_view line) {
    auto fields = SplitTabs(line);
    if (fields.size() < 2 || fields[1] != "c") return;
    if (RE2::FullMatch(re2::StringPiece(fields[0].data(), fields[0].size()), gpu_node)) ++nodes.gpus;
    if (fields[0] == "/dev/nvidiactl") nodes.ctl = true;
  });
  return nodes;
}

// kubelet.sock's mtime in the device-plugins listing; nullopt when absent.
std::optional<int64_t> KubeletSockMtime(std::string_view listing) {
  std::optional<int64_t> mtime;
  ForEachLine(listing, [&](int, std::string_view line) {
    auto fields = SplitTabs(line);
    if (fields.size() >= 9 && fields[1] == "s" && fields[0].ends_with("/kubelet.sock")) {
      mtime = std::atoll(std::string(fields[8]).c_str());
    }
  });
  return mtime;
}

}  // namespace

int CountPciGpus(std::string_view table) {
  int count = 0;
  ForEachLine(table, [&](int, std::string_view line) {
    if (line.empty() || line[0] == '#') return;
    size_t tab = line.rfind('\t');
    std::string_view pci_class = tab == std::string_view::npos ? "" : line.substr(tab + 1);
    if (PciRole(pci_class) == "gpu") ++count;
  });
  return count;
}

ChainFacts TriageFacts(const std::vector<ProbeResult>& results, const StagedReader& read,
                       const re2::RE2& plugin_pattern) {
  ChainFacts f;
  int64_t boot_start_ns = 0;
  std::vector<std::string> plugin_texts;  // held while the sources point into them
  std::vector<PluginLogSource::Format> plugin_formats;
  std::optional<int64_t> kubelet_sock_ns;
  std::vector<PluginContainer> containers;
  std::map<std::string, const ProbeResult*> views;  // plugin.nvidia_smi_list by container
  std::string host_unit;  // the plugin's unit, where its journal of this boot has lines
  int64_t driver_gpus = 0;
  for (const auto& r : results) {
    const ManifestArtifact& a = r.artifact;
    const bool ok = Is(a, ProbeStatus::kOk);
    if (a.name == artifact::kPciNvidiaFunctions && ok) {
      f.pci_gpus = CountPciGpus(read(r, kStreamContent));
    } else if (a.name == artifact::kBootProcStat && ok) {
      boot_start_ns = BootStartNs(read(r, kStreamContent));
    } else if (a.name == artifact::kDriverVersion) {
      if (ok) f.driver = ChainFacts::Driver{true, DriverVersion(read(r, kStreamContent)), 0};
      if (Is(a, ProbeStatus::kSkipped) && a.skip_reason == SkipReason::kNotFound) {
        f.driver = ChainFacts::Driver{false, "", 0};
      }
    } else if (a.name == artifact::kDriverGpuInformation && ok) {
      ++driver_gpus;
    } else if (a.name == artifact::kDevNvidiaNodes && ok) {
      f.device_nodes = DeviceNodesIn(read(r, kStreamContent));
    } else if (a.name == artifact::kHostNvidiaSmiList) {
      ChainFacts::HostNvml nvml;
      nvml.ran = !Is(a, ProbeStatus::kSkipped);
      nvml.skip_reason = a.skip_reason ? Word(*a.skip_reason) : "";
      nvml.result = Word(a.status);
      std::string out = read(r, kStreamStdout);
      nvml.gpus = static_cast<int64_t>(ParseNvidiaSmiList(out).size());
      if (!ok) nvml.message = FirstLine(out.empty() ? read(r, kStreamStderr) : out);
      f.host_nvml = nvml;
    } else if (a.name == artifact::kRuntimeCrictlPs && ok) {
      containers = PluginContainersFromCrictlPs(read(r, kStreamStdout), plugin_pattern, kMaxPluginContainers);
    } else if (a.name == artifact::kPluginNvidiaSmiList && !Is(a, ProbeStatus::kSkipped)) {
      views[a.container_id] = &r;
    } else if (a.name == artifact::kKubeletDevicePlugins && ok) {
      kubelet_sock_ns = KubeletSockMtime(read(r, kStreamContent));
    } else if (a.name == artifact::kK8sNode && ok) {
      f.node = NodeGpuResources(ParseNodeResources(read(r, kStreamStdout)));
    } else if (InArtifactGroup(kPluginLogsGroup, a.name) && (ok || Is(a, ProbeStatus::kNonzeroExit)) &&
               (a.name != artifact::kJournalNvidiaDevicePlugin || a.instance == "boot:0")) {
      bool journal = a.name == artifact::kJournalNvidiaDevicePlugin;
      for (auto stream : {kStreamContent, kStreamStdout, kStreamStderr}) {
        if (journal && stream != kStreamStdout) continue;
        plugin_texts.push_back(read(r, stream));
        // Its unit's journal of this boot holds lines: the plugin runs on the host.
        if (journal && !plugin_texts.back().empty()) host_unit = FindJournalSlice(a.name)->unit;
        plugin_formats.push_back(journal ? PluginLogSource::Format::kJournalJson
                                         : PluginLogSource::Format::kContainerLog);
      }
    }
  }
  if (f.driver && f.driver->loaded) f.driver->gpus = driver_gpus;
  if (!containers.empty()) {
    const PluginContainer& newest = containers.front();
    f.plugin_container = ChainFacts::PluginContainer{newest.state.empty() ? "?" : newest.state,
                                                     newest.id.substr(0, 13)};
    if (auto it = views.find(newest.id); it != views.end()) {
      const ProbeResult& view = *it->second;
      std::string said = read(view, kStreamStdout) + read(view, kStreamStderr);
      ChainFacts::ContainerView v;
      v.gpus = static_cast<int64_t>(ParseNvidiaSmiList(said).size());
      v.outcome = Is(view.artifact, ProbeStatus::kOk) ? "ok"
                  : IsExecutableMissing(said)         ? "executable_missing"
                                                      : Word(view.artifact.status);
      if (v.outcome != "ok") v.detail = FirstLine(said);
      f.container_view = v;
    }
  }
  f.kubelet_sock = kubelet_sock_ns.has_value();
  if (kubelet_sock_ns && *kubelet_sock_ns >= boot_start_ns) f.kubelet_restarted_ns = kubelet_sock_ns;
  std::vector<PluginLogSource> sources;
  for (size_t i = 0; i < plugin_texts.size(); ++i) sources.push_back({plugin_formats[i], plugin_texts[i]});
  f.plugin = ReadPluginSinceStart(sources, boot_start_ns);
  f.plugin.host_unit = host_unit;
  return f;
}

namespace {

// "cn-hangzhou.10.42.7.19 (kubelet_flag: /etc/...; hostname izbp1...z)".
std::string NodeLine(const Manifest& m) {
  if (m.node_name.empty()) return "none found (pass --node): the API was not asked";
  std::string line = m.node_name;
  std::string from;
  for (const auto& step : m.node_name_steps) {
    if (step.source == m.node_name_source) from = step.from;
  }
  if (!m.node_name_source.empty()) line += " (" + m.node_name_source + (from.empty() ? "" : ": " + from);
  if (!m.hostname.empty() && m.hostname != m.node_name) line += "; hostname " + m.hostname;
  return line + (m.node_name_source.empty() ? "" : ")");
}

std::string KubeconfigLine(const Manifest& m) {
  if (m.kubeconfig_source == "in_cluster") return "none: the pod's service account (in-cluster)";
  if (m.kubeconfig.empty()) return "none found (pass --kubeconfig)";
  return m.kubeconfig + " (" + m.kubeconfig_source + ")";
}

// Why the Node's GPU resources are not known, when the API was asked.
std::string NoResources(const std::vector<ProbeResult>& results, const Manifest& m, const StagedReader& read) {
  for (const auto& r : results) {
    const ManifestArtifact& a = r.artifact;
    if (a.name != artifact::kK8sNode || Is(a, ProbeStatus::kOk)) continue;
    if (Is(a, ProbeStatus::kSkipped)) return a.error;
    if (m.node_found == false) {
      return "the API has no Node named '" + m.node_name + "' (a wrong node name, not missing access; pass --node)";
    }
    std::string said = FirstLine(read(r, kStreamStderr));
    return "no API access" + (said.empty() ? std::string() : ": " + said);
  }
  return "";
}

void Row(std::ostringstream& out, const std::string& name, const std::string& value) {
  std::string label = name + ":";
  out << "  " << label << std::string(label.size() < 38 ? 38 - label.size() : 1, ' ') << value << "\n";
}

}  // namespace

std::string TriageSummary(const std::vector<ProbeResult>& results, const Manifest& manifest, const StagedReader& read,
                          const re2::RE2& plugin_pattern) {
  std::ostringstream out;
  Row(out, "Node", NodeLine(manifest));
  Row(out, "kubeconfig", KubeconfigLine(manifest));
  for (const auto& step : JudgeChain(TriageFacts(results, read, plugin_pattern))) {
    if (OutsideTheNode(step.id)) continue;
    std::string said = step.status == StepStatus::kUnknown && !step.missing.empty() ? step.missing : step.detail;
    if (step.id == ChainStepId::kNodeResources && step.status == StepStatus::kUnknown) {
      if (std::string why = NoResources(results, manifest, read); !why.empty()) said = why;
    }
    Row(out, step.name, Word(step.status) + (said.empty() ? "" : " (" + said + ")"));
  }
  for (const auto& r : results) {
    const ManifestArtifact& a = r.artifact;
    if (Is(a, ProbeStatus::kTimedOut) || Is(a, ProbeStatus::kError) || Is(a, ProbeStatus::kInterrupted)) {
      Row(out, "probe problem",
          a.name + (a.instance.empty() ? "" : "[" + a.instance + "]") + " " + Word(a.status) +
              (a.abandoned ? " (abandoned)" : ""));
    }
  }
  return out.str();
}

}  // namespace gpuf
