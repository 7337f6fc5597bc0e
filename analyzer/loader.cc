#include "analyzer/loader.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/batch_pipe.h"
#include "analyzer/load_context.h"
#include "analyzer/member_loaders.h"

namespace gpuf {

namespace {

// Which loader reads which stream. A name ending in '*' matches a prefix.
// Every text stream up to kMaxLinesBytes also lands in artifact_lines.
struct LoaderRow {
  std::string_view name;
  std::string_view stream;
  MemberLoader load;
};

constexpr LoaderRow kLoaders[] = {
    {"host.nvidia_smi_list", "stdout", LoadNvidiaSmiList},
    {"host.nvidia_smi_list", "stdout", LoadNvidiaSmiRun},
    {"host.nvidia_smi_query_xml", "stdout", LoadNvidiaSmiXml},
    {"host.nvidia_smi_query_xml", "stdout", LoadNvidiaSmiRun},
    {"plugin.nvidia_smi_list", "stdout", LoadNvidiaSmiRun},
    {"plugin.nvidia_smi_list", "stdout", LoadContainerGpuView},
    {"host.nvidia_smi", "stdout", LoadNvidiaSmiRun},
    {"plugin.nvidia_smi", "stdout", LoadNvidiaSmiRun},
    {"saved.nvidia_smi", "stdout", LoadNvidiaSmiRun},
    {"saved.nvidia_smi_list", "stdout", LoadNvidiaSmiRun},
    {"k8s.events", "stdout", LoadKubeEvents},
    {"k8s.pod_text", "stdout", LoadKubePodText},
    {"k8s.pods", "stdout", LoadKubePods},
    {"k8s.node_text", "stdout", LoadKubeNodeText},
    {"driver.version", "content", LoadDriverVersion},
    {"driver.gpu_information", "content", LoadDriverGpu},
    {"kernel.devices", "content", LoadProcDevices},
    {"pci.nvidia_functions", "content", LoadPciTable},
    {"dev.nvidia_nodes", "content", LoadDeviceNodes},
    {"dev.char_links", "content", LoadCharLinks},
    {"kubelet.device_plugins", "content", LoadPluginSockets},
    {"k8s.node", "stdout", LoadNodeResources},
    {"journal.*", "stdout", LoadJournal},
    {"runtime.crictl_ps", "stdout", LoadCrictlPs},
    {"plugin.inspect", "stdout", LoadCrictlInspect},
    {"runtime.ctr_container_info", "stdout", LoadCtrContainerInfo},
    {"plugin.devices_list", "content", LoadDevicesList},
    {"plugin.systemd_scope", "stdout", LoadSystemdScope},
    {"plugin.bpftool_cgroup", "stdout", LoadBpftoolCgroup},
    {"plugin.proc_cgroup", "content", LoadProcCgroup},
    {"plugin.log", "content", LoadPluginLogFile},
    {"plugin.crictl_logs", "stdout", LoadCrictlLogs},
    {"plugin.crictl_logs", "stderr", LoadCrictlLogs},
    {"cgroup.mountinfo", "content", LoadMountinfo},
    {"cgroup.statfs", "content", LoadStatfs},
    {"config.static_pod", "content", LoadStaticPod},
    {"config.containerd", "content", LoadContainerdConfig},
    {"config.containerd_dropin", "content", LoadContainerdConfig},
    {"config.crio", "content", LoadCrioConfig},
    {"config.nvidia_container_runtime", "content", LoadNvidiaRuntimeConfig},
    {"config.kubelet", "content", LoadKubeletConfig},
    {"kubelet.checkpoint", "content", LoadKubeletCheckpoint},
    {"runtime.crictl_info", "stdout", LoadCrictlInfo},
    {"versions.*", "stdout", LoadVersions},
};

// Streams not copied line by line: they have a table of their own that
// holds every line (journal) or they are one big document.
constexpr std::string_view kNoLines[] = {"journal.*", "host.nvidia_smi_query_xml", "k8s.node_pods"};
constexpr int64_t kMaxLinesBytes = 16LL << 20;

bool NameMatches(std::string_view pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') return name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
  return name == pattern;
}

// Journal slices are the bulk of a bundle (up to 64 MiB each): they are
// loaded line by line as they are read, never held whole. Their only loader
// is LoadJournal, which JournalStream does the same as.
constexpr std::string_view kStreamedName = "journal.*";
constexpr std::string_view kStreamedStream = "stdout";

// Splits the chunks into lines exactly as ForEachLine splits a whole text,
// and parses their JSON on the reading thread, while a worker classifies and
// stores the rows of the lines before. The database is the worker's alone
// until End.
class JournalStream : public MemberStream {
 public:
  JournalStream(LoadContext& ctx, int64_t artifact_id, const ManifestArtifact& a, const ManifestOutput& o)
      : ctx_(ctx), in_{artifact_id, a, o, {}}, lines_(ctx, in_),
        rows_([this](const std::vector<JournalLineLoader::Row>& batch) {
                for (const auto& row : batch) lines_.Store(row);
              },
              o.size_bytes >= kThreadedBytes) {}

  void Chunk(std::string_view bytes) override {
    while (!bytes.empty()) {
      size_t end = bytes.find('\n');
      if (end == std::string_view::npos) {
        pending_.append(bytes);
        return;
      }
      if (pending_.empty()) {
        Emit(bytes.substr(0, end));
      } else {
        pending_.append(bytes.substr(0, end));
        Emit(pending_);
        pending_.clear();
      }
      bytes.remove_prefix(end + 1);
    }
  }

  void End(bool verified) override {
    if (!pending_.empty()) Emit(pending_);
    pending_.clear();
    rows_.Close();
    ctx_.Run("UPDATE artifact_outputs SET present = 1, verified = ? WHERE artifact_id = ? AND stream = ?",
             verified, in_.artifact_id, in_.output.stream);
  }

 private:
  // Below this a slice is stored on the reading thread: a fleet of small
  // bundles spent more on threads than it saved.
  static constexpr int64_t kThreadedBytes = 1 << 20;

  void Emit(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    rows_.Add(JournalLineLoader::Parse(++number_, line));
  }

  LoadContext& ctx_;
  MemberInput in_;
  JournalLineLoader lines_;
  std::string pending_;
  int number_ = 0;
  BatchPipe<JournalLineLoader::Row> rows_;  // last: its worker is stopped before the members above go
};

class Loader : public BundleVisitor {
 public:
  Loader(Database& db, std::string path) : db_(db), path_(std::move(path)) {}

  Status OnManifest(const Manifest& m) override {
    manifest_ = m;
    GPUF_RETURN_IF_ERROR(InsertBundle(m));
    ctx_ = std::make_unique<LoadContext>(db_, bundle_id_, manifest_);
    for (const auto& a : m.artifacts) {
      ctx_->Run("INSERT INTO artifacts (bundle_id, name, instance, kind, argv_json, path, context, container_id, "
                "phase, started_at_ns, duration_ns, status, exit_code, signal, timed_out, abandoned, truncated, "
                "skip_reason, error, redactions) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                bundle_id_, a.name, a.instance, a.kind,
                a.argv.empty() ? std::nullopt : std::optional<std::string>(nlohmann::json(a.argv).dump()),
                NullIfEmpty(a.path), a.context, NullIfEmpty(a.container_id), a.phase, a.started_at_unix_ns,
                a.duration_ns, a.status, a.exit_code, a.signal, a.timed_out, a.abandoned, a.truncated,
                NullIfEmpty(a.skip_reason), NullIfEmpty(a.error), a.redactions);
      int64_t id = db_.LastInsertId();
      artifact_ids_[&a] = id;
      for (const auto& o : a.outputs) {
        ctx_->Run("INSERT OR IGNORE INTO artifact_outputs (artifact_id, stream, member, size_bytes, sha256, "
                  "truncated, dropped_bytes, present, verified) VALUES (?,?,?,?,?,?,?,0,0)",
                  id, o.stream, o.member, o.size_bytes, o.sha256, o.truncated, o.dropped_bytes);
      }
    }
    return ctx_->status();
  }

  void OnMember(const ManifestArtifact& a, const ManifestOutput& o, std::string bytes, bool verified) override {
    int64_t id = artifact_ids_[&a];
    ctx_->Run("UPDATE artifact_outputs SET present = 1, verified = ? WHERE artifact_id = ? AND stream = ?",
              verified, id, o.stream);
    MemberInput in{id, a, o, bytes};
    for (const auto& row : kLoaders) {
      if (row.stream == o.stream && NameMatches(row.name, a.name)) row.load(*ctx_, in);
    }
    bool lines = static_cast<int64_t>(bytes.size()) <= kMaxLinesBytes;
    for (auto pattern : kNoLines) lines = lines && !NameMatches(pattern, a.name);
    if (lines) LoadArtifactLines(*ctx_, in);
  }

  void OnProgress(const BundleReadProgress& read) override {
    if (!progress_) return;
    LoadProgress p;
    p.compressed_bytes_read = read.compressed_bytes_read;
    p.compressed_bytes_total = compressed_bytes_total_;
    p.members_loaded = read.members_read;
    p.members_total = read.members_expected;
    if (read.artifact) p.artifact = read.artifact->name;
    p.artifact_bytes = read.member_bytes;
    progress_(p);
  }

  void set_progress(const LoadProgressFn& progress, const std::string& path) {
    progress_ = progress;
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    compressed_bytes_total_ = ec ? 0 : static_cast<int64_t>(size);
  }

  MemberStream* StreamMember(const ManifestArtifact& a, const ManifestOutput& o) override {
    if (o.stream != kStreamedStream || !NameMatches(kStreamedName, a.name)) return nullptr;
    stream_ = std::make_unique<JournalStream>(*ctx_, artifact_ids_[&a], a, o);
    return stream_.get();
  }

  // After the last member: what was gathered across them.
  void Finish() {
    if (ctx_) ctx_->WriteJournalBoots();
  }

  Status status() const { return ctx_ ? ctx_->status() : Status::Ok(); }
  int64_t bundle_id() const { return bundle_id_; }
  const Manifest& manifest() const { return manifest_; }

 private:
  Status InsertBundle(const Manifest& m) {
    GPUF_ASSIGN_OR_RETURN(
        Statement s,
        db_.Prepare("INSERT INTO bundles (path, format_version, tool_version, node_name, machine_id, boot_id, "
                    "collected_at_ns, collection_ended_ns, complete, incomplete_reason, utc_offset_seconds, "
                    "host_root, origin_kind, redacted_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    s.Bind(1, path_).Bind(2, int64_t{m.format_version}).Bind(3, m.tool_version).Bind(4, m.node_name);
    if (m.machine_id.empty()) s.BindNull(5); else s.Bind(5, m.machine_id);
    if (m.boot_id.empty()) s.BindNull(6); else s.Bind(6, m.boot_id);
    s.Bind(7, m.started_at_unix_ns).Bind(8, m.ended_at_unix_ns).Bind(9, int64_t{m.complete});
    if (m.incomplete_reason.empty()) s.BindNull(10); else s.Bind(10, m.incomplete_reason);
    s.Bind(11, int64_t{m.utc_offset_seconds}).Bind(12, m.root);
    if (m.origin.kind.empty()) s.BindNull(13); else s.Bind(13, m.origin.kind);
    if (!m.redaction.redacted) s.BindNull(14); else s.Bind(14, m.redaction.by);
    GPUF_RETURN_IF_ERROR(s.Run());
    bundle_id_ = db_.LastInsertId();
    return Status::Ok();
  }

  Database& db_;
  std::string path_;
  Manifest manifest_;
  int64_t bundle_id_ = 0;
  std::unique_ptr<LoadContext> ctx_;
  std::map<const ManifestArtifact*, int64_t> artifact_ids_;
  LoadProgressFn progress_;
  int64_t compressed_bytes_total_ = 0;
  std::unique_ptr<JournalStream> stream_;
};

}  // namespace

Result<LoadResult> LoadBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress) {
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  Loader loader(db, bundle_path);
  loader.set_progress(progress, bundle_path);
  LoadResult result;
  Status read = ReadBundle(bundle_path, BundleLimits{}, loader, result.integrity_issues);
  GPUF_RETURN_IF_ERROR(read.WithContext("reading '" + bundle_path + "'"));
  loader.Finish();
  GPUF_RETURN_IF_ERROR(loader.status());
  GPUF_ASSIGN_OR_RETURN(Statement warn,
                        db.Prepare("INSERT INTO parse_warnings (member, message) VALUES (?, ?)"));
  for (const auto& issue : result.integrity_issues) {
    GPUF_RETURN_IF_ERROR(warn.Bind(1, issue.member).Bind(2, "integrity: " + issue.problem).Run());
  }
  GPUF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  result.bundle_id = loader.bundle_id();
  result.manifest = loader.manifest();
  return result;
}

}  // namespace gpuf
