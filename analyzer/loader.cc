#include "analyzer/loader.h"

#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/parsers/journal_json.h"
#include "analyzer/parsers/kube_node.h"
#include "analyzer/parsers/listing.h"
#include "analyzer/parsers/nvidia_smi_list.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

constexpr int64_t kMaxLinesArtifactBytes = 16LL << 20;

bool StartsWith(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

std::optional<int64_t> BootOffset(const std::string& instance) {
  if (!StartsWith(instance, "boot:")) return std::nullopt;
  try {
    return std::stoll(instance.substr(5));
  } catch (...) {
    return std::nullopt;
  }
}

class Loader : public BundleVisitor {
 public:
  Loader(Database& db, std::string path) : db_(db), path_(std::move(path)) {}

  Status OnManifest(const Manifest& m) override {
    manifest_ = m;
    GPUF_RETURN_IF_ERROR(InsertBundle(m));
    GPUF_ASSIGN_OR_RETURN(
        Statement artifact,
        db_.Prepare("INSERT INTO artifacts (bundle_id, name, instance, kind, argv_json, path, context, "
                    "container_id, phase, started_at_ns, duration_ns, status, exit_code, signal, timed_out, "
                    "abandoned, truncated, skip_reason, error, redactions) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    GPUF_ASSIGN_OR_RETURN(
        Statement output,
        db_.Prepare("INSERT OR IGNORE INTO artifact_outputs (artifact_id, stream, member, size_bytes, sha256, "
                    "truncated, dropped_bytes, present, verified) VALUES (?,?,?,?,?,?,?,0,0)"));
    for (const auto& a : m.artifacts) {
      auto nullable = [](const std::string& s) { return s; };
      artifact.Bind(1, bundle_id_).Bind(2, a.name).Bind(3, a.instance).Bind(4, a.kind);
      if (a.argv.empty()) artifact.BindNull(5); else artifact.Bind(5, nlohmann::json(a.argv).dump());
      if (a.path.empty()) artifact.BindNull(6); else artifact.Bind(6, nullable(a.path));
      artifact.Bind(7, a.context);
      if (a.container_id.empty()) artifact.BindNull(8); else artifact.Bind(8, a.container_id);
      artifact.Bind(9, int64_t{a.phase}).Bind(10, a.started_at_unix_ns).Bind(11, a.duration_ns).Bind(12, a.status);
      artifact.Bind(13, a.exit_code ? std::optional<int64_t>(*a.exit_code) : std::nullopt);
      artifact.Bind(14, a.signal ? std::optional<int64_t>(*a.signal) : std::nullopt);
      artifact.Bind(15, int64_t{a.timed_out}).Bind(16, int64_t{a.abandoned}).Bind(17, int64_t{a.truncated});
      if (a.skip_reason.empty()) artifact.BindNull(18); else artifact.Bind(18, a.skip_reason);
      if (a.error.empty()) artifact.BindNull(19); else artifact.Bind(19, a.error);
      artifact.Bind(20, int64_t{a.redactions});
      GPUF_RETURN_IF_ERROR(artifact.Run());
      int64_t id = db_.LastInsertId();
      artifact_ids_[&a] = id;
      for (const auto& o : a.outputs) {
        output.Bind(1, id).Bind(2, o.stream).Bind(3, o.member).Bind(4, o.size_bytes).Bind(5, o.sha256);
        output.Bind(6, int64_t{o.truncated}).Bind(7, o.dropped_bytes);
        GPUF_RETURN_IF_ERROR(output.Run());
      }
    }
    return PrepareMemberStatements();
  }

  void OnMember(const ManifestArtifact& a, const ManifestOutput& o, std::string bytes, bool verified) override {
    int64_t id = artifact_ids_[&a];
    Record(mark_present_->Bind(1, int64_t{verified}).Bind(2, id).Bind(3, o.stream).Run());
    if ((a.name == "host.nvidia_smi_list" || a.name == "plugin.nvidia_smi_list") && o.stream == "stdout") {
      LoadGpus(a, id, bytes);
    }
    if (StartsWith(a.name, "journal.") && o.stream == "stdout") {
      LoadJournal(a, id, o, bytes);
      return;
    }
    if (a.kind == "listing") LoadListing(id, o, bytes);
    if (a.name == "k8s.node" && o.stream == "stdout") LoadNodeResources(id, bytes);
    if (a.name == "host.nvidia_smi_query_xml") return;  // gets its own parser
    if (static_cast<int64_t>(bytes.size()) <= kMaxLinesArtifactBytes) LoadLines(id, o, bytes);
  }

  const Status& status() const { return status_; }
  int64_t bundle_id() const { return bundle_id_; }
  const Manifest& manifest() const { return manifest_; }

 private:
  Status InsertBundle(const Manifest& m) {
    GPUF_ASSIGN_OR_RETURN(
        Statement s,
        db_.Prepare("INSERT INTO bundles (path, format_version, tool_version, node_name, machine_id, boot_id, "
                    "collected_at_ns, collection_ended_ns, complete, incomplete_reason, utc_offset_seconds, "
                    "host_root) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
    s.Bind(1, path_).Bind(2, int64_t{m.format_version}).Bind(3, m.tool_version).Bind(4, m.node_name);
    if (m.machine_id.empty()) s.BindNull(5); else s.Bind(5, m.machine_id);
    if (m.boot_id.empty()) s.BindNull(6); else s.Bind(6, m.boot_id);
    s.Bind(7, m.started_at_unix_ns).Bind(8, m.ended_at_unix_ns).Bind(9, int64_t{m.complete});
    if (m.incomplete_reason.empty()) s.BindNull(10); else s.Bind(10, m.incomplete_reason);
    s.Bind(11, int64_t{m.utc_offset_seconds}).Bind(12, m.root);
    GPUF_RETURN_IF_ERROR(s.Run());
    bundle_id_ = db_.LastInsertId();
    return Status::Ok();
  }

  Status PrepareMemberStatements() {
    auto prepare = [&](std::unique_ptr<Statement>& slot, const char* sql) -> Status {
      GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare(sql));
      slot = std::make_unique<Statement>(std::move(s));
      return Status::Ok();
    };
    GPUF_RETURN_IF_ERROR(prepare(mark_present_,
        "UPDATE artifact_outputs SET present = 1, verified = ? WHERE artifact_id = ? AND stream = ?"));
    GPUF_RETURN_IF_ERROR(prepare(insert_gpu_,
        "INSERT INTO gpus (artifact_id, line, view, container_id, gpu_index, name, uuid, mig_devices) "
        "VALUES (?,?,?,?,?,?,?,?)"));
    GPUF_RETURN_IF_ERROR(prepare(insert_journal_,
        "INSERT INTO journal_entries (artifact_id, line, boot_offset, realtime_us, monotonic_us, boot_id, unit, "
        "identifier, pid, priority, transport, message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
    GPUF_RETURN_IF_ERROR(prepare(insert_line_,
        "INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (?,?,?,?)"));
    GPUF_RETURN_IF_ERROR(prepare(insert_entry_,
        "INSERT INTO file_entries (artifact_id, line, path, type, mode, uid, gid, major, minor, size_bytes, "
        "mtime_ns, link_target) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
    GPUF_RETURN_IF_ERROR(prepare(insert_resource_,
        "INSERT INTO node_resources (artifact_id, field, resource, quantity) VALUES (?,?,?,?)"));
    GPUF_RETURN_IF_ERROR(prepare(insert_warning_,
        "INSERT INTO load_warnings (artifact_id, member, line, message) VALUES (?,?,?,?)"));
    return Status::Ok();
  }

  void Record(const Status& s) {
    if (!s.ok() && status_.ok()) status_ = s;
  }

  void Warn(int64_t id, const std::string& member, int line, const std::string& message) {
    Record(insert_warning_->Bind(1, id).Bind(2, member).Bind(3, int64_t{line}).Bind(4, message).Run());
  }

  void LoadGpus(const ManifestArtifact& a, int64_t id, const std::string& bytes) {
    for (const auto& g : ParseNvidiaSmiList(bytes)) {
      insert_gpu_->Bind(1, id).Bind(2, int64_t{g.line}).Bind(3, a.context == "container" ? "container" : "host");
      if (a.container_id.empty()) insert_gpu_->BindNull(4); else insert_gpu_->Bind(4, a.container_id);
      insert_gpu_->Bind(5, int64_t{g.index}).Bind(6, g.name).Bind(7, g.uuid).Bind(8, int64_t{g.mig_devices});
      Record(insert_gpu_->Run());
    }
  }

  void LoadJournal(const ManifestArtifact& a, int64_t id, const ManifestOutput& o, const std::string& bytes) {
    std::optional<int64_t> boot = BootOffset(a.instance);
    ForEachLine(bytes, [&](int number, std::string_view line) {
      if (line.empty()) return;
      auto e = ParseJournalJsonLine(line);
      if (!e) {
        Warn(id, o.member, number, "not a journal JSON object");
        return;
      }
      Statement& s = *insert_journal_;
      s.Bind(1, id).Bind(2, int64_t{number}).Bind(3, boot).Bind(4, e->realtime_us).Bind(5, e->monotonic_us);
      s.Bind(6, e->boot_id).Bind(7, e->unit).Bind(8, e->identifier).Bind(9, e->pid).Bind(10, e->priority);
      s.Bind(11, e->transport).Bind(12, e->message);
      Record(s.Run());
    });
  }

  void LoadListing(int64_t id, const ManifestOutput& o, const std::string& bytes) {
    ParsedListing listing = ParseListing(bytes);
    for (const auto& r : listing.rows) {
      Statement& s = *insert_entry_;
      s.Bind(1, id).Bind(2, int64_t{r.line}).Bind(3, r.path).Bind(4, r.type).Bind(5, r.mode).Bind(6, r.uid);
      s.Bind(7, r.gid).Bind(8, r.major).Bind(9, r.minor).Bind(10, r.size_bytes).Bind(11, r.mtime_ns);
      if (r.link_target.empty()) s.BindNull(12); else s.Bind(12, r.link_target);
      Record(s.Run());
    }
    for (int line : listing.bad_lines) Warn(id, o.member, line, "malformed listing row");
  }

  void LoadNodeResources(int64_t id, const std::string& bytes) {
    for (const auto& r : ParseNodeResources(bytes)) {
      Record(insert_resource_->Bind(1, id).Bind(2, r.field).Bind(3, r.resource).Bind(4, r.quantity).Run());
    }
  }

  void LoadLines(int64_t id, const ManifestOutput& o, const std::string& bytes) {
    ForEachLine(bytes, [&](int number, std::string_view line) {
      Record(insert_line_->Bind(1, id).Bind(2, o.stream).Bind(3, int64_t{number}).Bind(4, line).Run());
    });
  }

  Database& db_;
  std::string path_;
  Manifest manifest_;
  int64_t bundle_id_ = 0;
  std::map<const ManifestArtifact*, int64_t> artifact_ids_;
  std::unique_ptr<Statement> mark_present_, insert_gpu_, insert_journal_, insert_line_, insert_entry_,
      insert_resource_, insert_warning_;
  Status status_;
};

}  // namespace

Result<LoadResult> LoadBundle(const std::string& bundle_path, Database& db) {
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  Loader loader(db, bundle_path);
  LoadResult result;
  Status read = ReadBundle(bundle_path, BundleLimits{}, loader, result.integrity_issues);
  GPUF_RETURN_IF_ERROR(read.WithContext("reading '" + bundle_path + "'"));
  GPUF_RETURN_IF_ERROR(loader.status());
  GPUF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  result.bundle_id = loader.bundle_id();
  result.manifest = loader.manifest();
  return result;
}

}  // namespace gpuf
