#include "importer/import_plan.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <tuple>
#include <filesystem>

#include "collector/bundle_writer.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/manifest.h"
#include "common/sha256.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace gpuf {

namespace {

// Logical names whose collected form is a command's stdout.
constexpr std::string_view kStdoutNames[] = {
    "host.nvidia_smi_list", "host.nvidia_smi_query_xml", "host.uname", "plugin.nvidia_smi_list", "k8s.node",
    "k8s.node_pods", "runtime.crictl_ps", "runtime.crictl_pods", "runtime.crictl_info", "plugin.inspect",
    "plugin.crictl_logs", "plugin.systemd_scope", "plugin.bpftool_cgroup", "boot.list_boots", "systemd.units",
    "host.nvidia_smi", "plugin.nvidia_smi", "saved.nvidia_smi", "saved.nvidia_smi_list", "k8s.events", "k8s.pod_text",
    "k8s.node_text", "k8s.pods",
};

bool IsCommandName(const std::string& name) {
  if (name.rfind("journal.", 0) == 0 || name.rfind("versions.", 0) == 0) return true;
  return std::find(std::begin(kStdoutNames), std::end(kStdoutNames), name) != std::end(kStdoutNames);
}

std::string KindForName(const std::string& name) {
  if (IsCommandName(name)) return "command";
  if (name == "dev.nvidia_nodes" || name == "dev.char_links" || name == "kubelet.device_plugins" ||
      name == "host.localtime") {
    return "listing";
  }
  if (name == "pci.nvidia_functions" || name == "cgroup.statfs") return "table";
  return "file";
}

class TempDir {
 public:
  TempDir() {
    std::string base = std::filesystem::temp_directory_path().string() + "/gpuforensics-import-XXXXXX";
    std::vector<char> name(base.begin(), base.end());
    name.push_back('\0');
    if (mkdtemp(name.data()) != nullptr) path_ = name.data();
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

bool ImportPlan::Has(const std::string& name) const {
  for (const auto& a : artifacts) {
    if (a.name == name) return true;
  }
  return false;
}

std::string StreamForName(const std::string& name) {
  return IsCommandName(name) ? std::string(kStreamStdout) : std::string(kStreamContent);
}

Status WriteImportedBundle(const ImportPlan& plan, const std::vector<std::string>& cannot_show,
                           const std::string& output_path) {
  TempDir staging;
  if (staging.path().empty()) return Status::IoError("cannot create a temporary directory");
  std::vector<ImportedArtifact> artifacts = plan.artifacts;
  std::stable_sort(artifacts.begin(), artifacts.end(), [](const auto& a, const auto& b) {
    return std::tie(a.name, a.instance) < std::tie(b.name, b.instance);
  });
  Manifest m;
  m.format = std::string(kBundleFormatName);
  m.format_version = kBundleFormatVersion;
  m.tool_name = "gpuforensics";
  m.tool_version = GPUF_VERSION;
  m.hostname = plan.hostname.empty() ? plan.journal_hostname : plan.hostname;
  m.node_name = m.hostname;
  m.boot_id = plan.boot_id;
  m.started_at_unix_ns = m.ended_at_unix_ns = plan.captured_at_ns;
  m.utc_offset_seconds = plan.utc_offset_seconds;
  m.plugin_pattern = std::string(kDefaultPluginPattern);
  m.origin = ManifestOrigin{plan.kind, plan.source_name, cannot_show, {}, plan.capture_next};
  for (const auto& in : plan.inputs) {
    m.origin.inputs.push_back({in.path, in.read_as, in.artifacts, in.note, in.not_read});
  }
  std::vector<BundleMember> members;
  int sequence = 0;
  for (const auto& a : artifacts) {
    ++sequence;
    ManifestArtifact out;
    out.name = a.name;
    out.instance = a.instance;
    out.kind = KindForName(a.name);
    out.context = !a.context.empty() ? a.context : a.container_id.empty() ? "host" : "container";
    out.container_id = a.container_id;
    out.started_at_unix_ns = out.ended_at_unix_ns = plan.captured_at_ns;
    out.status = "ok";
    out.exit_code = a.exit_code;
    out.source_file = a.note.empty() ? a.source_file : a.source_file + " (" + a.note + ")";
    std::vector<std::pair<std::string, std::string>> streams = {{StreamForName(a.name), a.bytes}};
    if (out.kind == "command") streams.emplace_back(std::string(kStreamStderr), "");
    for (const auto& [stream, bytes] : streams) {
      ManifestOutput o;
      o.stream = stream;
      o.member = ArtifactMemberPath(sequence, a.name, stream);
      o.size_bytes = static_cast<int64_t>(bytes.size());
      o.sha256 = Sha256Hex(bytes);
      std::string file = staging.path() + "/" + std::to_string(members.size());
      GPUF_RETURN_IF_ERROR(WriteWholeFile(file, bytes));
      members.push_back({o.member, file});
      out.outputs.push_back(std::move(o));
    }
    m.artifacts.push_back(std::move(out));
  }
  return WriteBundle(output_path, SerializeManifest(m), std::move(members), plan.captured_at_ns / 1000000000LL);
}

}  // namespace gpuf
