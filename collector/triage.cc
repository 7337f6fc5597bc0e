#include "collector/triage.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/bundle_layout.h"
#include "common/pci_role.h"
#include "common/plugin_phrases.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

std::string NodeGpuResources(const std::string& node_json) {
  auto doc = nlohmann::json::parse(node_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return "";
  auto quantity = [&](const char* field) -> std::string {
    auto status = doc.find("status");
    if (status == doc.end() || !status->is_object()) return "absent";
    auto map = status->find(field);
    if (map == status->end() || !map->is_object()) return "absent";
    auto value = map->find("nvidia.com/gpu");
    if (value == map->end() || !value->is_string()) return "absent";
    return value->get<std::string>();
  };
  return quantity("capacity") + " / " + quantity("allocatable");
}

// What runc and crictl say when the command does not exist in the image
// (distroless plugin images without the toolkit's utility injection).
bool IsExecutableMissing(std::string_view said) {
  return said.find("executable file not found") != std::string_view::npos ||
         said.find("no such file or directory") != std::string_view::npos;
}

}  // namespace

int CountNvidiaSmiGpus(std::string_view output) {
  int count = 0;
  ForEachLine(output, [&](int, std::string_view line) {
    if (line.substr(0, 4) == "GPU " && line.find("(UUID: ") != std::string_view::npos) ++count;
  });
  return count;
}

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

// Why the Node's GPU resources are not known.
std::string NoResources(const ProbeResult& r, const Manifest& m, const StagedReader& read) {
  const ManifestArtifact& a = r.artifact;
  if (a.status == "skipped") return "unknown (" + a.error + ")";
  if (m.node_found == false) {
    return "unknown: the API has no Node named '" + m.node_name + "' (a wrong node name, not missing access; pass --node)";
  }
  std::string said = FirstLine(read(r, kStreamStderr));
  return "unknown (no API access" + (said.empty() ? std::string(")") : ": " + said + ")");
}

}  // namespace

std::string TriageSummary(const std::vector<ProbeResult>& results, const Manifest& manifest, const StagedReader& read) {
  std::ostringstream out;
  std::string host_gpus = "not run", pci_gpus = "unknown", resources = "unknown (no API access)";
  std::vector<std::string> plugin_views, problems;
  bool registered = false;
  int plugin_logs = 0;
  for (const auto& r : results) {
    const ManifestArtifact& a = r.artifact;
    if (a.name == "pci.nvidia_functions" && a.status == "ok") {
      pci_gpus = std::to_string(CountPciGpus(read(r, kStreamContent)));
    } else if (a.name == "host.nvidia_smi_list") {
      if (a.status == "ok") {
        host_gpus = std::to_string(CountNvidiaSmiGpus(read(r, kStreamStdout)));
      } else if (a.status != "skipped") {
        std::string said = FirstLine(read(r, kStreamStdout));
        host_gpus = a.status + (said.empty() ? "" : ": " + said);
      }
    } else if (a.name == "plugin.nvidia_smi_list" && a.status != "skipped") {
      std::string said = read(r, kStreamStdout) + read(r, kStreamStderr);
      std::string view = a.status == "ok" ? std::to_string(CountNvidiaSmiGpus(said)) + " GPUs"
                         : IsExecutableMissing(said) ? "nvidia-smi is not in the image (not an NVML failure)"
                                                     : a.status + ": " + FirstLine(said);
      plugin_views.push_back(a.container_id.substr(0, 13) + " " + view);
    } else if (a.name == "k8s.node" && a.status == "ok") {
      std::string gpus = NodeGpuResources(read(r, kStreamStdout));
      if (!gpus.empty()) resources = gpus;
    } else if (a.name == "k8s.node") {
      resources = NoResources(r, manifest, read);
    } else if ((a.name == "plugin.log" || a.name == "plugin.crictl_logs") && a.status == "ok") {
      ++plugin_logs;
      std::string text = read(r, kStreamContent) + read(r, kStreamStdout) + read(r, kStreamStderr);
      for (std::string_view phrase : kPluginRegisteredPhrases) {
        if (text.find(phrase) != std::string::npos) registered = true;
      }
    }
    if (a.status == "timed_out" || a.status == "error" || a.status == "interrupted") {
      problems.push_back(a.name + (a.instance.empty() ? "" : "[" + a.instance + "]") + " " + a.status +
                         (a.abandoned ? " (abandoned)" : ""));
    }
  }
  out << "  Node:                         " << NodeLine(manifest) << "\n";
  out << "  kubeconfig:                   " << KubeconfigLine(manifest) << "\n";
  out << "  NVIDIA GPUs on PCI:           " << pci_gpus << "\n";
  out << "  host nvidia-smi -L:           " << host_gpus << "\n";
  if (plugin_views.empty()) out << "  plugin container nvidia-smi:  no running plugin container found\n";
  for (const auto& v : plugin_views) out << "  plugin container nvidia-smi:  " << v << "\n";
  out << "  node nvidia.com/gpu cap/alloc: " << resources << "\n";
  out << "  plugin registration in logs:  "
      << (plugin_logs == 0 ? "no plugin logs found" : registered ? "found" : "NOT found") << "\n";
  for (const auto& p : problems) out << "  probe problem:                " << p << "\n";
  return out.str();
}

}  // namespace gpuf
