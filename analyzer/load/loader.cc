#include "analyzer/load/loader.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/journal/batch_pipe.h"
#include "analyzer/load/load_context.h"
#include "analyzer/load/member_loaders.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/json_bytes.h"
#include "common/line_splitter.h"

namespace gpuf {

namespace {

using namespace artifact;
using namespace std::string_view_literals;

// The member loaders: each names the artifacts it reads and the tables it
// fills; an artifact's loaders run in this order. A loader reads the
// artifact's stream (stdout or content); crictl's logs also from stderr,
// where crictl writes the container's stderr.
constexpr MemberLoaderRow kMemberLoaders[] = {
    {.id = "nvidia_smi_list", .reads = {kHostNvidiaSmiList}, .writes = {"gpus"sv}, .load = LoadNvidiaSmiList},
    {.id = "nvidia_smi_xml",
     .reads = {kHostNvidiaSmiQueryXml},
     .writes = {"gpus"sv, "versions"sv},
     .load = LoadNvidiaSmiXml},
    {.id = "nvidia_smi_run",
     .reads = {kPluginNvidiaSmiList, kHostNvidiaSmi, kPluginNvidiaSmi, kSavedNvidiaSmiList, kSavedNvidiaSmi,
               kHostNvidiaSmiList, kHostNvidiaSmiQueryXml},
     .writes = {"nvidia_smi_runs"sv},
     .load = LoadNvidiaSmiRun,
     .with_stderr = true},
    {.id = "container_gpu_view",
     .reads = {kPluginNvidiaSmiList},
     .writes = {"container_gpu_views"sv},
     .load = LoadContainerGpuView},
    {.id = "driver_version", .reads = {kDriverVersion}, .writes = {"versions"sv}, .load = LoadDriverVersion},
    {.id = "driver_gpu", .reads = {kDriverGpuInformation}, .writes = {"driver_gpus"sv}, .load = LoadDriverGpu},
    {.id = "proc_devices", .reads = {kKernelDevices}, .writes = {"char_device_majors"sv}, .load = LoadProcDevices},
    {.id = "pci_table", .reads = {kPciNvidiaFunctions}, .writes = {"pci_devices"sv}, .load = LoadPciTable},
    {.id = "device_nodes", .reads = {kDevNvidiaNodes}, .writes = {"device_nodes"sv}, .load = LoadDeviceNodes},
    {.id = "char_links", .reads = {kDevCharLinks}, .writes = {"char_links"sv}, .load = LoadCharLinks},
    {.id = "plugin_sockets",
     .reads = {kKubeletDevicePlugins},
     .writes = {"plugin_sockets"sv},
     .load = LoadPluginSockets},
    {.id = "systemd_units", .reads = {kSystemdUnits}, .writes = {"systemd_units"sv}, .load = LoadSystemdUnits},
    {.id = "node_resources",
     .reads = {kK8sNode},
     .writes = {"node_resources"sv, "node_conditions"sv},
     .load = LoadNodeResources},
    {.id = "journal",
     .reads = {kJournalKernel, kJournalSystemd, kJournalKubelet, kJournalContainerd, kJournalNvidiaPersistenced,
               kJournalNvidiaFabricmanager, kJournalNvidiaDevicePlugin, kJournalJournald},
     .writes = {"journal_entries"sv, "journal_boots"sv},
     .load = LoadJournal,
     .journal_entries = true,
     .stream = NewJournalLoader},
    {.id = "crictl_ps", .reads = {kRuntimeCrictlPs}, .writes = {"containers"sv}, .load = LoadCrictlPs},
    {.id = "crictl_inspect",
     .reads = {kPluginInspect},
     .writes = {"containers"sv, "device_cgroup_rules"sv, "plugin_config"sv},
     .load = LoadCrictlInspect},
    {.id = "ctr_container_info",
     .reads = {kRuntimeCtrContainerInfo},
     .writes = {"containers"sv, "device_cgroup_rules"sv, "plugin_config"sv},
     .load = LoadCtrContainerInfo},
    {.id = "devices_list", .reads = {kPluginDevicesList}, .writes = {"device_cgroup_rules"sv}, .load = LoadDevicesList},
    {.id = "systemd_scope",
     .reads = {kPluginSystemdScope},
     .writes = {"cgroup_facts"sv, "device_cgroup_rules"sv},
     .load = LoadSystemdScope},
    {.id = "bpftool_cgroup", .reads = {kPluginBpftoolCgroup}, .writes = {"cgroup_facts"sv}, .load = LoadBpftoolCgroup},
    {.id = "bpf_device_program",
     .reads = {kPluginBpfDeviceProgram},
     .writes = {"device_cgroup_rules"sv},
     .load = LoadBpfDeviceProgram},
    {.id = "proc_cgroup", .reads = {kPluginProcCgroup}, .writes = {"cgroup_facts"sv}, .load = LoadProcCgroup},
    {.id = "plugin_log_file",
     .reads = {kPluginLog},
     .writes = {"log_lines"sv, "plugin_config"sv},
     .load = LoadPluginLogFile,
     .stream = NewPluginLogLoader},
    {.id = "crictl_logs",
     .reads = {kPluginCrictlLogs},
     .writes = {"log_lines"sv, "plugin_config"sv},
     .load = LoadCrictlLogs,
     .stderr_too = true},
    {.id = "mountinfo", .reads = {kCgroupMountinfo}, .writes = {"cgroup_facts"sv}, .load = LoadMountinfo},
    {.id = "statfs", .reads = {kCgroupStatfs}, .writes = {"cgroup_facts"sv}, .load = LoadStatfs},
    {.id = "static_pod", .reads = {kConfigStaticPod}, .writes = {"plugin_config"sv}, .load = LoadStaticPod},
    {.id = "containerd_config",
     .reads = {kConfigContainerd, kConfigContainerdDropin},
     .writes = {"config_values"sv},
     .load = LoadContainerdConfig},
    {.id = "crio_config", .reads = {kConfigCrio}, .writes = {"config_values"sv}, .load = LoadCrioConfig},
    {.id = "nvidia_runtime_config",
     .reads = {kConfigNvidiaContainerRuntime},
     .writes = {"config_values"sv},
     .load = LoadNvidiaRuntimeConfig},
    {.id = "kubelet_config", .reads = {kConfigKubelet}, .writes = {"config_values"sv}, .load = LoadKubeletConfig},
    {.id = "kubelet_checkpoint",
     .reads = {kKubeletCheckpoint},
     .writes = {"config_values"sv},
     .load = LoadKubeletCheckpoint},
    {.id = "crictl_info", .reads = {kRuntimeCrictlInfo}, .writes = {"config_values"sv}, .load = LoadCrictlInfo},
    {.id = "versions",
     .reads = {kVersionsContainerd, kVersionsRunc, kVersionsNvidiaCtk, kVersionsNvidiaContainerCli, kVersionsKubelet,
               kVersionsSystemctl, kVersionsCrictl, kVersionsCrio, kVersionsCrun},
     .writes = {"versions"sv},
     .load = LoadVersions},
    {.id = "kube_events", .reads = {kK8sEvents}, .writes = {"k8s_events"sv}, .load = LoadKubeEvents},
    {.id = "kube_metrics",
     .reads = {kK8sMetrics},
     .writes = {"metric_queries"sv, "metric_samples"sv},
     .load = LoadKubeMetrics},
    {.id = "kube_cluster", .reads = {kK8sCluster}, .writes = {"cluster_identity"sv}, .load = LoadKubeCluster},
    {.id = "kube_daemonset",
     .reads = {kK8sPluginDaemonSet},
     .writes = {"daemonset_rollouts"sv},
     .load = LoadKubeDaemonSet},
    {.id = "kube_pod_text",
     .reads = {kK8sPodText},
     .writes = {"k8s_pod_states"sv, "k8s_events"sv},
     .load = LoadKubePodText},
    {.id = "kube_pods", .reads = {kK8sPods}, .writes = {"k8s_pod_states"sv}, .load = LoadKubePods},
    {.id = "kube_node_text",
     .reads = {kK8sNodeText},
     .writes = {"node_labels"sv, "node_resources"sv},
     .load = LoadKubeNodeText},
    {.id = "kernel_ring",
     .reads = {kHostDmesg},
     .writes = {"journal_entries"sv},
     .load = LoadKernelRing,
     .after_all = true,
     .journal_entries = true},
    {.id = "kubelet_log_file",
     .reads = {kHostKubeletLog},
     .writes = {"journal_entries"sv},
     .load = LoadKubeletLog,
     .after_all = true,
     .journal_entries = true},
};

// Every text stream up to this size also lands in artifact_lines, unless
// its artifact says it does not keep lines.
constexpr int64_t kMaxLinesBytes = 16LL << 20;

// Calls `fn` with each loader that reads the artifact `name`, in table order.
template <typename Fn>
void ForEachLoaderOf(std::string_view name, Fn fn) {
  for (const auto& loader : kMemberLoaders) {
    if (LoaderReads(loader, name)) fn(loader);
  }
}

// The artifact's only loader; nullptr for none or several.
const MemberLoaderRow* OnlyLoaderOf(std::string_view name) {
  const MemberLoaderRow* only = nullptr;
  int count = 0;
  ForEachLoaderOf(name, [&](const MemberLoaderRow& loader) {
    only = &loader;
    ++count;
  });
  return count == 1 ? only : nullptr;
}

// The streamed loader of a member that is read as it streams, or nullptr:
// one whose artifact has a single loader, which can stream, and whose lines
// are not kept whole in artifact_lines.
StreamedLoaderFactory StreamedLoader(const ManifestArtifact& a, const ManifestOutput& o) {
  const ArtifactRow* row = FindArtifact(a.name);
  if (!row || o.stream != row->stream()) return nullptr;
  const MemberLoaderRow* loader = OnlyLoaderOf(row->name);
  if (!loader || !loader->stream) return nullptr;
  if (row->keeps_lines && o.size_bytes <= kMaxLinesBytes) return nullptr;
  return loader->stream;
}

// Splits the chunks into lines exactly as ForEachLine splits a whole text
// and hands them to the member's streamed loader. The stream keeps its own
// copy of the artifact: a bundle cut off inside the member ends the read
// without End, and the rows still queued are stored when the stream goes,
// after the reader's manifest has gone.
class LineStream : public MemberStream {
 public:
  LineStream(LoadContext& ctx, int64_t artifact_id, const ManifestArtifact& a, const ManifestOutput& o,
             StreamedLoaderFactory make)
      : ctx_(ctx), artifact_(a), output_(o), in_{artifact_id, artifact_, output_, {}},
        lines_(make(ctx, in_, o.size_bytes >= kThreadedMemberBytes)) {}

  void Chunk(std::string_view bytes) override {
    splitter_.Chunk(bytes, [this](int number, std::string_view line) { lines_->Line(number, line); });
  }

  void End(bool verified) override {
    splitter_.End([this](int number, std::string_view line) { lines_->Line(number, line); });
    lines_->End();
    ctx_.Run("UPDATE artifact_outputs SET present = 1, verified = ? WHERE artifact_id = ? AND stream = ?",
             verified, in_.artifact_id, in_.output.stream);
  }

 private:
  LoadContext& ctx_;
  const ManifestArtifact artifact_;
  const ManifestOutput output_;
  MemberInput in_;
  LineSplitter splitter_;
  std::unique_ptr<StreamedLineLoader> lines_;  // last: its worker is stopped before the members above go
};

class Loader : public BundleVisitor {
 public:
  Loader(Database& db, std::string path, JournalEntryFilter journal_filter)
      : db_(db), path_(std::move(path)), journal_filter_(journal_filter) {}

  Status OnManifest(const Manifest& m) override {
    manifest_ = m;
    GPUF_RETURN_IF_ERROR(InsertBundle(m));
    ctx_ = std::make_unique<LoadContext>(db_, bundle_id_, manifest_);
    ctx_->set_journal_filter(journal_filter_);
    for (const auto& a : m.artifacts) artifact_ids_[&a] = InsertArtifactRow(*ctx_, a);
    return ctx_->status();
  }

  void OnMember(const ManifestArtifact& a, const ManifestOutput& o, std::string bytes, bool verified) override {
    int64_t id = artifact_ids_[&a];
    ctx_->Run("UPDATE artifact_outputs SET present = 1, verified = ? WHERE artifact_id = ? AND stream = ?",
              verified, id, o.stream);
    MemberInput in{id, a, o, bytes};
    const ArtifactRow* row = FindArtifact(a.name);
    if (row) {
      ForEachLoaderOf(row->name, [&](const MemberLoaderRow& loader) {
        if (loader.after_all) {
          if (o.stream == row->stream()) last_.push_back({&loader, &a, &o, bytes});
        } else if (loader.with_stderr) {
          Pend(a, *row, o, bytes);
        } else if (o.stream == row->stream() || (loader.stderr_too && o.stream == kStreamStderr)) {
          loader.load(*ctx_, in);
        }
      });
    }
    bool lines = static_cast<int64_t>(bytes.size()) <= kMaxLinesBytes && (!row || row->keeps_lines);
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
    StreamedLoaderFactory loader = StreamedLoader(a, o);
    if (!loader) return nullptr;
    stream_.reset();  // the member before, if it was cut off: its rows go first
    stream_ = std::make_unique<LineStream>(*ctx_, artifact_ids_[&a], a, o, loader);
    return stream_.get();
  }

  // After the last member: what was gathered across them. The manifest's
  // artifacts that pending_ and last_ point into live until ReadBundle returns.
  void OnEnd() override {
    if (!ctx_) return;
    // An artifact whose stderr member was missing from the archive.
    while (!pending_.empty()) RunPending(pending_.begin());
    for (const auto& member : last_) {
      member.loader->load(*ctx_, MemberInput{artifact_ids_[member.artifact], *member.artifact, *member.output,
                                             member.bytes});
    }
    last_.clear();
    ctx_->WriteJournalBoots();
  }

  Status status() const { return ctx_ ? ctx_->status() : Status::Ok(); }
  int64_t bundle_id() const { return bundle_id_; }
  const Manifest& manifest() const { return manifest_; }

 private:
  // The two streams of an artifact whose loaders read both, kept until the
  // second arrives.
  struct Pending {
    const ArtifactRow* row = nullptr;
    const ManifestOutput* main = nullptr;
    std::string main_bytes, stderr_bytes;
    bool have_main = false, have_stderr = false;
  };

  void Pend(const ManifestArtifact& a, const ArtifactRow& row, const ManifestOutput& o, const std::string& bytes) {
    Pending& p = pending_[&a];
    p.row = &row;
    if (o.stream == row.stream() && !p.have_main) {
      p.main = &o;
      p.main_bytes = bytes;
      p.have_main = true;
    } else if (o.stream == kStreamStderr && !p.have_stderr) {
      p.stderr_bytes = bytes;
      p.have_stderr = true;
    }
    if (p.have_main && (p.have_stderr || !a.FindOutput(kStreamStderr))) RunPending(pending_.find(&a));
  }

  // Runs the artifact's both-stream loaders and forgets it; nothing runs
  // without the main stream.
  void RunPending(std::map<const ManifestArtifact*, Pending>::iterator it) {
    const ManifestArtifact& a = *it->first;
    Pending p = std::move(it->second);
    pending_.erase(it);
    if (!p.have_main) return;
    MemberInput in{artifact_ids_[&a], a, *p.main, p.main_bytes, p.stderr_bytes};
    ForEachLoaderOf(p.row->name, [&](const MemberLoaderRow& loader) {
      if (loader.with_stderr) loader.load(*ctx_, in);
    });
  }

  Status InsertBundle(const Manifest& m) {
    GPUF_ASSIGN_OR_RETURN(bundle_id_, InsertBundleRow(db_, path_, m));
    return Status::Ok();
  }

  // A member whose loader runs after all others (MemberLoaderRow::after_all).
  struct Last {
    const MemberLoaderRow* loader;
    const ManifestArtifact* artifact;
    const ManifestOutput* output;
    std::string bytes;
  };

  Database& db_;
  std::string path_;
  JournalEntryFilter journal_filter_;
  Manifest manifest_;
  int64_t bundle_id_ = 0;
  std::unique_ptr<LoadContext> ctx_;
  std::map<const ManifestArtifact*, int64_t> artifact_ids_;
  LoadProgressFn progress_;
  int64_t compressed_bytes_total_ = 0;
  std::unique_ptr<LineStream> stream_;
  std::map<const ManifestArtifact*, Pending> pending_;
  std::vector<Last> last_;
};

// The members' buffers and the threads' rows are freed by the end of the
// load, but glibc keeps the pages in each thread's arena: 100 MB on the
// bench bundle, under the timeline's and the rules' own peak. They are
// given back to the system before those start.
void ReleaseFreedMemory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace

Result<int64_t> InsertBundleRow(Database& db, const std::string& path, const Manifest& m) {
  GPUF_ASSIGN_OR_RETURN(
      Statement s,
      db.Prepare("INSERT INTO bundles (path, format_version, tool_version, node_name, machine_id, boot_id, "
                 "collected_at_ns, collection_ended_ns, complete, incomplete_reason, utc_offset_seconds, "
                 "host_root, origin_kind, redacted_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  s.Bind(1, path).Bind(2, int64_t{m.format_version}).Bind(3, m.tool_version).Bind(4, m.node_name);
  if (m.machine_id.empty()) s.BindNull(5); else s.Bind(5, m.machine_id);
  if (m.boot_id.empty()) s.BindNull(6); else s.Bind(6, m.boot_id);
  s.Bind(7, m.started_at_unix_ns).Bind(8, m.ended_at_unix_ns).Bind(9, int64_t{m.complete});
  if (m.incomplete_reason.empty()) s.BindNull(10); else s.Bind(10, m.incomplete_reason);
  s.Bind(11, int64_t{m.utc_offset_seconds}).Bind(12, m.root);
  if (m.origin.kind.empty()) s.BindNull(13); else s.Bind(13, m.origin.kind);
  if (!m.redaction.redacted) s.BindNull(14); else s.Bind(14, m.redaction.by);
  GPUF_RETURN_IF_ERROR(s.Run());
  return db.LastInsertId();
}

int64_t InsertArtifactRow(LoadContext& ctx, const ManifestArtifact& a) {
  ctx.Run(
      "INSERT INTO artifacts (bundle_id, name, instance, kind, argv_json, path, context, container_id, "
      "phase, started_at_ns, duration_ns, status, exit_code, signal, timed_out, abandoned, truncated, "
      "skip_reason, error, redactions) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
      ctx.bundle_id(), a.name, a.instance, a.kind,
      a.argv.empty() ? std::nullopt
                     : std::optional<std::string>(DumpJson(nlohmann::json(a.argv), -1, NonUtf8::kEscaped)),
      NullIfEmpty(a.path), a.context, NullIfEmpty(a.container_id), a.phase, a.started_at_unix_ns, a.duration_ns,
      Name(a.status), a.exit_code, a.signal, a.timed_out, a.abandoned, a.truncated,
      a.skip_reason ? std::optional<std::string>(Name(*a.skip_reason)) : std::nullopt, NullIfEmpty(a.error),
      a.redactions);
  int64_t id = ctx.db().LastInsertId();
  for (const auto& o : a.outputs) {
    ctx.Run("INSERT OR IGNORE INTO artifact_outputs (artifact_id, stream, member, size_bytes, sha256, "
            "truncated, dropped_bytes, present, verified) VALUES (?,?,?,?,?,?,?,0,0)",
            id, o.stream, o.member, o.size_bytes, o.sha256, o.truncated, o.dropped_bytes);
  }
  return id;
}

std::span<const MemberLoaderRow> MemberLoaderTable() { return kMemberLoaders; }

const MemberLoaderRow* FindMemberLoader(std::string_view id) {
  for (const auto& row : kMemberLoaders) {
    if (row.id == id) return &row;
  }
  return nullptr;
}

bool LoaderReads(const MemberLoaderRow& loader, std::string_view name) {
  return std::find(loader.reads.begin(), loader.reads.end(), name) != loader.reads.end();
}

bool LoaderWrites(const MemberLoaderRow& loader, std::string_view table) {
  return std::find(loader.writes.begin(), loader.writes.end(), table) != loader.writes.end();
}

bool LoadsJournalEntries(std::string_view name) {
  bool journal = false;
  ForEachLoaderOf(name, [&](const MemberLoaderRow& loader) { journal = journal || loader.journal_entries; });
  return journal;
}

Result<LoadResult> LoadBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress,
                              JournalEntryFilter journal_filter) {
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  Loader loader(db, bundle_path, journal_filter);
  loader.set_progress(progress, bundle_path);
  LoadResult result;
  Status read = ReadBundle(bundle_path, BundleLimits{}, loader, result.integrity_issues);
  GPUF_RETURN_IF_ERROR(read.WithContext("reading '" + bundle_path + "'"));
  GPUF_RETURN_IF_ERROR(loader.status());
  GPUF_ASSIGN_OR_RETURN(Statement warn,
                        db.Prepare("INSERT INTO parse_warnings (member, message) VALUES (?, ?)"));
  for (const auto& issue : result.integrity_issues) {
    GPUF_RETURN_IF_ERROR(warn.Bind(1, issue.member).Bind(2, "integrity: " + issue.problem).Run());
  }
  GPUF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  ReleaseFreedMemory();
  result.bundle_id = loader.bundle_id();
  result.manifest = loader.manifest();
  return result;
}

}  // namespace gpuf
