#include "common/manifest.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/json_bytes.h"
#include "common/sha256.h"
#include "common/time_format.h"
#include "common/vocabulary.h"

namespace gpuf {

using nlohmann::json;

const ManifestOutput* ManifestArtifact::FindOutput(std::string_view stream) const {
  for (const auto& output : outputs) {
    if (output.stream == stream) return &output;
  }
  return nullptr;
}

struct Manifest::FindIndex {
  const ManifestArtifact* data = nullptr;  // what it was built over: a
  size_t count = 0;                        // changed vector rebuilds it
  std::unordered_map<std::string, size_t> position;  // name '\0' instance -> first index
};

namespace {

std::string IndexKey(std::string_view name, std::string_view instance) {
  std::string key(name);
  key += '\0';
  key += instance;
  return key;
}

}  // namespace

std::optional<size_t> Manifest::IndexOf(std::string_view name, std::string_view instance) const {
  auto matches = [&](size_t i) { return artifacts[i].name == name && artifacts[i].instance == instance; };
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool fresh = false;
    if (!find_index_ || find_index_->data != artifacts.data() || find_index_->count != artifacts.size()) {
      auto index = std::make_shared<FindIndex>();
      index->data = artifacts.data();
      index->count = artifacts.size();
      for (size_t i = 0; i < artifacts.size(); ++i) {
        index->position.emplace(IndexKey(artifacts[i].name, artifacts[i].instance), i);
      }
      find_index_ = std::move(index);
      fresh = true;
    }
    auto it = find_index_->position.find(IndexKey(name, instance));
    if (it != find_index_->position.end() && matches(it->second)) return it->second;
    if (fresh) return std::nullopt;
    find_index_.reset();  // an artifact was renamed in place: build again once
  }
  return std::nullopt;
}

const ManifestArtifact* Manifest::Find(std::string_view name, std::string_view instance) const {
  auto i = IndexOf(name, instance);
  return i ? &artifacts[*i] : nullptr;
}

ManifestArtifact* Manifest::FindMutable(std::string_view name, std::string_view instance) {
  auto i = IndexOf(name, instance);
  return i ? &artifacts[*i] : nullptr;
}

std::vector<const ManifestArtifact*> Manifest::FindAll(std::string_view name) const {
  std::vector<const ManifestArtifact*> found;
  for (const auto& artifact : artifacts) {
    if (artifact.name == name) found.push_back(&artifact);
  }
  return found;
}

namespace {

json NullableString(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

template <typename T>
json NullableOptional(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json OutputToJson(const ManifestOutput& o) {
  return json{{"stream", o.stream},       {"member", o.member},
              {"size_bytes", o.size_bytes}, {"sha256", o.sha256},
              {"truncated", o.truncated},   {"dropped_bytes", o.dropped_bytes}};
}

json ArtifactToJson(const ManifestArtifact& a, bool redacted) {
  json outputs = json::array();
  for (const auto& o : a.outputs) outputs.push_back(OutputToJson(o));
  json j = json{{"name", a.name},
              {"instance", a.instance},
              {"kind", a.kind},
              {"argv", a.argv},
              {"executable", NullableString(a.executable)},
              {"path", NullableString(a.path)},
              {"context", a.context},
              {"container_id", NullableString(a.container_id)},
              {"phase", a.phase},
              {"started_at", FormatRfc3339Utc(a.started_at_unix_ns)},
              {"started_at_unix_ns", a.started_at_unix_ns},
              {"ended_at_unix_ns", a.ended_at_unix_ns},
              {"duration_ns", a.duration_ns},
              {"status", Name(a.status)},
              {"exit_code", NullableOptional(a.exit_code)},
              {"signal", NullableOptional(a.signal)},
              {"timed_out", a.timed_out},
              {"abandoned", a.abandoned},
              {"truncated", a.truncated},
              {"skip_reason", a.skip_reason ? json(Name(*a.skip_reason)) : json(nullptr)},
              {"error", NullableString(a.error)},
              {"redactions", a.redactions},
              {"outputs", outputs}};
  if (!a.journal_match.empty()) j["journal_match"] = a.journal_match;
  if (a.journal_narrowed_argv) j["journal_narrowed_argv"] = *a.journal_narrowed_argv;
  if (redacted) {
    json counts = json::array();
    for (const auto& [name, count] : a.redaction_counts) counts.push_back({{"class", name}, {"count", count}});
    j["redaction_counts"] = counts;
  }
  return j;
}

json ArtifactWithSource(const ManifestArtifact& a, bool redacted) {
  json j = ArtifactToJson(a, redacted);
  if (!a.source_file.empty()) j["source_file"] = a.source_file;
  return j;
}

// 2^64-1 parses as an unsigned integer that int64_t would wrap to -1 (1970).
bool FitsInt64(const json& value) {
  return !value.is_number_unsigned() || value.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX);
}

// Reading helpers: every accessor checks the type so that a hostile manifest
// produces a BadInput naming the field, never an exception or a crash.
class Reader {
 public:
  explicit Reader(const json& object, std::string where) : object_(object), where_(std::move(where)) {}

  std::string String(const char* key, bool required = true) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (required) Fail(key, "missing");
      return {};
    }
    // Bytes that are not UTF-8 arrive as an array of byte values (common/json_bytes.h).
    std::optional<std::string> bytes = BytesFromJson(*it);
    if (!bytes) Fail(key, "not a string");
    return bytes.value_or("");
  }

  int64_t Int(const char* key, bool required = true) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (required) Fail(key, "missing");
      return 0;
    }
    if (!it->is_number_integer() || !FitsInt64(*it)) {
      Fail(key, "not an integer of 64 bits");
      return 0;
    }
    return it->get<int64_t>();
  }

  std::optional<int> OptionalInt(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() || !FitsInt64(*it)) {
      Fail(key, "not an integer of 64 bits");
      return std::nullopt;
    }
    return static_cast<int>(it->get<int64_t>());
  }

  bool Bool(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return false;
    if (!it->is_boolean()) {
      Fail(key, "not a boolean");
      return false;
    }
    return it->get<bool>();
  }

  const json* Array(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end() || !it->is_array()) {
      Fail(key, "missing or not an array");
      return nullptr;
    }
    return &*it;
  }

  const json* Object(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end() || !it->is_object()) {
      Fail(key, "missing or not an object");
      return nullptr;
    }
    return &*it;
  }

  const Status& status() const { return status_; }

 private:
  void Fail(const char* key, const char* problem) {
    if (status_.ok()) {
      status_ = Status::BadInput("manifest field '" + where_ + key + "' " + problem);
    }
  }

  const json& object_;
  std::string where_;
  Status status_;
};

Status ReadOutput(const json& j, const std::string& where, ManifestOutput& o) {
  if (!j.is_object()) return Status::BadInput("manifest field '" + where + "' is not an object");
  Reader r(j, where + ".");
  o.stream = r.String("stream");
  o.member = r.String("member");
  o.size_bytes = r.Int("size_bytes");
  o.sha256 = r.String("sha256");
  o.truncated = r.Bool("truncated");
  o.dropped_bytes = r.Int("dropped_bytes", false);
  return r.status();
}

// How a probe ended and why it was skipped are closed lists (schema/bundle.md),
// parsed here, at the border.
Status ReadWords(const std::string& where, const std::string& status, const std::string& skip_reason,
                 ManifestArtifact& a) {
  auto parsed = Parse<ProbeStatus>(status);
  if (!parsed) return Status::BadInput("manifest field '" + where + ".status' is not a probe status: '" + status + "'");
  a.status = *parsed;
  if (!skip_reason.empty()) {
    a.skip_reason = Parse<SkipReason>(skip_reason);
    if (!a.skip_reason) {
      return Status::BadInput("manifest field '" + where + ".skip_reason' is not a skip reason: '" + skip_reason + "'");
    }
  }
  for (auto kind : {ArtifactKind::kCommand, ArtifactKind::kFile, ArtifactKind::kListing, ArtifactKind::kTable}) {
    if (a.kind == ArtifactKindName(kind)) return Status::Ok();
  }
  return Status::BadInput("manifest field '" + where + ".kind' is not an artifact kind: '" + a.kind + "'");
}

// An optional array of strings under `key`.
Status ReadStrings(const json& object, const char* key, std::vector<std::string>& out,
                   const std::string& where = "origin.") {
  auto list = object.find(key);
  if (list == object.end() || list->is_null()) return Status::Ok();
  if (!list->is_array()) return Status::BadInput("manifest field '" + where + key + "' is not an array");
  for (const auto& item : *list) {
    std::optional<std::string> bytes = BytesFromJson(item);
    if (!bytes) return Status::BadInput("manifest field '" + where + key + "' holds a non-string");
    out.push_back(std::move(*bytes));
  }
  return Status::Ok();
}

Status ReadArtifact(const json& j, const std::string& where, ManifestArtifact& a) {
  if (!j.is_object()) return Status::BadInput("manifest field '" + where + "' is not an object");
  Reader r(j, where + ".");
  a.name = r.String("name");
  a.instance = r.String("instance", false);
  a.kind = r.String("kind");
  GPUF_RETURN_IF_ERROR(ReadStrings(j, "argv", a.argv, where + "."));
  GPUF_RETURN_IF_ERROR(ReadStrings(j, "journal_match", a.journal_match, where + "."));
  if (auto it = j.find("journal_narrowed_argv"); it != j.end() && !it->is_null()) {
    a.journal_narrowed_argv.emplace();
    GPUF_RETURN_IF_ERROR(ReadStrings(j, "journal_narrowed_argv", *a.journal_narrowed_argv, where + "."));
  }
  a.executable = r.String("executable", false);
  a.path = r.String("path", false);
  a.context = r.String("context");
  a.container_id = r.String("container_id", false);
  a.phase = static_cast<int>(r.Int("phase", false));
  a.started_at_unix_ns = r.Int("started_at_unix_ns");
  a.ended_at_unix_ns = r.Int("ended_at_unix_ns");
  a.duration_ns = r.Int("duration_ns");
  const std::string status = r.String("status");
  a.exit_code = r.OptionalInt("exit_code");
  a.signal = r.OptionalInt("signal");
  a.timed_out = r.Bool("timed_out");
  a.abandoned = r.Bool("abandoned");
  a.truncated = r.Bool("truncated");
  const std::string skip_reason = r.String("skip_reason", false);
  a.error = r.String("error", false);
  a.redactions = static_cast<int>(r.Int("redactions", false));
  a.source_file = r.String("source_file", false);
  if (auto it = j.find("redaction_counts"); it != j.end() && it->is_array()) {
    for (const auto& c : *it) {
      if (!c.is_object() || !c.contains("class") || !c["class"].is_string() || !c.contains("count") ||
          !c["count"].is_number_integer()) {
        return Status::BadInput("manifest field '" + where + ".redaction_counts' holds a malformed entry");
      }
      a.redaction_counts[c["class"].get<std::string>()] = c["count"].get<int64_t>();
    }
  }
  const json* outputs = r.Array("outputs");
  GPUF_RETURN_IF_ERROR(r.status());
  GPUF_RETURN_IF_ERROR(ReadWords(where, status, skip_reason, a));
  for (size_t i = 0; i < outputs->size(); ++i) {
    ManifestOutput o;
    GPUF_RETURN_IF_ERROR(ReadOutput((*outputs)[i], where + ".outputs[" + std::to_string(i) + "]", o));
    a.outputs.push_back(std::move(o));
  }
  return Status::Ok();
}

// Absent on collected bundles; when present its kind is required.
Status ReadOrigin(const json& top, ManifestOrigin& origin) {
  auto it = top.find("origin");
  if (it == top.end() || it->is_null()) return Status::Ok();
  if (!it->is_object()) return Status::BadInput("manifest field 'origin' is not an object");
  Reader r(*it, "origin.");
  origin.kind = r.String("kind");
  origin.source = r.String("source", false);
  GPUF_RETURN_IF_ERROR(ReadStrings(*it, "cannot_show", origin.cannot_show));
  GPUF_RETURN_IF_ERROR(ReadStrings(*it, "capture_next", origin.capture_next));
  if (auto list = it->find("inputs"); list != it->end() && !list->is_null()) {
    if (!list->is_array()) return Status::BadInput("manifest field 'origin.inputs' is not an array");
    for (size_t i = 0; i < list->size(); ++i) {
      const json& in = (*list)[i];
      std::string where = "origin.inputs[" + std::to_string(i) + "]";
      if (!in.is_object()) return Status::BadInput("manifest field '" + where + "' is not an object");
      Reader f(in, where + ".");
      ManifestInputFile file;
      file.path = f.String("path");
      file.read_as = f.String("read_as", false);
      file.note = f.String("note", false);
      file.not_read = f.String("not_read", false);
      GPUF_RETURN_IF_ERROR(f.status());
      GPUF_RETURN_IF_ERROR(ReadStrings(in, "artifacts", file.artifacts, where + "."));
      origin.inputs.push_back(std::move(file));
    }
  }
  return r.status();
}

json HostObject(const Manifest& m) {
  json steps = json::array();
  for (const auto& step : m.node_name_steps) {
    steps.push_back({{"source", step.source}, {"from", NullableString(step.from)}, {"value", NullableString(step.value)}});
  }
  return {{"hostname", m.hostname},
          {"node_name", m.node_name},
          {"node_name_source", NullableString(m.node_name_source)},
          {"node_name_steps", steps},
          {"node_found", m.node_found ? json(*m.node_found) : json(nullptr)},
          {"kubeconfig", NullableString(m.kubeconfig)},
          {"kubeconfig_source", NullableString(m.kubeconfig_source)},
          {"platform", NullableString(m.platform)},
          {"platform_evidence", m.platform_evidence ? json(*m.platform_evidence) : json(nullptr)},
          {"machine_id", NullableString(m.machine_id)},
          {"boot_id", NullableString(m.boot_id)}};
}

// Absent on bundles written before node identity was recorded.
Status ReadNameSteps(const json& host, std::vector<ManifestNameStep>& steps) {
  auto it = host.find("node_name_steps");
  if (it == host.end() || it->is_null()) return Status::Ok();
  if (!it->is_array()) return Status::BadInput("manifest field 'host.node_name_steps' is not an array");
  for (size_t i = 0; i < it->size(); ++i) {
    const json& step = (*it)[i];
    if (!step.is_object()) return Status::BadInput("manifest field 'host.node_name_steps' holds a non-object");
    Reader r(step, "host.node_name_steps[" + std::to_string(i) + "].");
    steps.push_back({r.String("source"), r.String("from", false), r.String("value", false)});
    GPUF_RETURN_IF_ERROR(r.status());
  }
  return Status::Ok();
}

}  // namespace

std::string SerializeManifest(const Manifest& m) {
  json artifacts = json::array();
  for (const auto& a : m.artifacts) artifacts.push_back(ArtifactWithSource(a, m.redaction.redacted));
  json j = {
      {"format", m.format},
      {"format_version", m.format_version},
      {"tool", {{"name", m.tool_name}, {"version", m.tool_version}}},
      {"host", HostObject(m)},
      {"collection",
       {{"started_at", FormatRfc3339Utc(m.started_at_unix_ns)},
        {"started_at_unix_ns", m.started_at_unix_ns},
        {"ended_at", FormatRfc3339Utc(m.ended_at_unix_ns)},
        {"ended_at_unix_ns", m.ended_at_unix_ns},
        {"started_monotonic_ns", m.started_monotonic_ns},
        {"ended_monotonic_ns", m.ended_monotonic_ns},
        {"complete", m.complete},
        {"incomplete_reason", NullableString(m.incomplete_reason)},
        {"tz_env", NullableString(m.tz_env)},
        {"utc_offset_seconds", m.utc_offset_seconds}}},
      {"options",
       {{"root", m.root},
        {"probe_timeout_ms", m.probe_timeout_ms},
        {"deadline_ms", m.deadline_ms},
        {"plugin_pattern", m.plugin_pattern},
        {"exec_mode", m.exec_mode},
        {"no_driver", m.no_driver},
        {"fixed_time", m.fixed_time}}},
      {"artifacts", artifacts},
  };
  if (!m.origin.kind.empty()) {
    j["origin"] = {{"kind", m.origin.kind}, {"source", m.origin.source}, {"cannot_show", m.origin.cannot_show}};
    if (!m.origin.capture_next.empty()) j["origin"]["capture_next"] = m.origin.capture_next;
    if (!m.origin.inputs.empty()) {
      json inputs = json::array();
      for (const auto& in : m.origin.inputs) {
        inputs.push_back({{"path", in.path},
                          {"read_as", NullableString(in.read_as)},
                          {"artifacts", in.artifacts},
                          {"note", NullableString(in.note)},
                          {"not_read", NullableString(in.not_read)}});
      }
      j["origin"]["inputs"] = inputs;
    }
  }
  if (m.redaction.redacted) {
    j["redaction"] = {{"redacted", true},
                      {"by", m.redaction.by},
                      {"classes", m.redaction.classes},
                      {"user_patterns", m.redaction.user_patterns}};
  }
  return DumpJson(j, 2, NonUtf8::kByteArray) + "\n";
}

std::string BundleId(const Manifest& manifest) {
  constexpr size_t kDigits = 12;
  if (manifest.source_sha256.size() < kDigits) return "";
  return "gf-" + manifest.source_sha256.substr(0, kDigits);
}

Result<Manifest> ParseManifest(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::BadInput("manifest.json is not valid JSON");
  if (!j.is_object()) return Status::BadInput("manifest.json is not a JSON object");
  Manifest m;
  m.source_sha256 = Sha256Hex(text);
  Reader top(j, "");
  m.format = top.String("format");
  GPUF_RETURN_IF_ERROR(top.status());
  if (m.format != kBundleFormatName) {
    return Status::BadInput("manifest.json names format '" + m.format + "', not '" +
                            std::string(kBundleFormatName) + "'");
  }
  m.format_version = static_cast<int>(top.Int("format_version"));
  GPUF_RETURN_IF_ERROR(top.status());
  if (m.format_version > kBundleFormatVersion) {
    return Status::Unsupported("bundle format version " + std::to_string(m.format_version) +
                               " is newer than this gpuforensics understands (" +
                               std::to_string(kBundleFormatVersion) + "); upgrade gpuforensics");
  }
  if (m.format_version < 1) return Status::BadInput("manifest format_version must be >= 1");
  const json* tool = top.Object("tool");
  const json* host = top.Object("host");
  const json* collection = top.Object("collection");
  const json* options = top.Object("options");
  const json* artifacts = top.Array("artifacts");
  GPUF_RETURN_IF_ERROR(top.status());

  Reader t(*tool, "tool.");
  m.tool_name = t.String("name");
  m.tool_version = t.String("version");
  GPUF_RETURN_IF_ERROR(t.status());

  Reader h(*host, "host.");
  m.hostname = h.String("hostname", false);
  m.node_name = h.String("node_name", false);
  m.node_name_source = h.String("node_name_source", false);
  m.kubeconfig = h.String("kubeconfig", false);
  m.kubeconfig_source = h.String("kubeconfig_source", false);
  m.platform = h.String("platform", false);
  if (auto it = host->find("platform_evidence"); it != host->end() && it->is_string()) {
    m.platform_evidence = it->get<std::string>();
  }
  m.machine_id = h.String("machine_id", false);
  m.boot_id = h.String("boot_id", false);
  GPUF_RETURN_IF_ERROR(h.status());
  if (auto found = host->find("node_found"); found != host->end() && !found->is_null()) {
    if (!found->is_boolean()) return Status::BadInput("manifest field 'host.node_found' is not a boolean");
    m.node_found = found->get<bool>();
  }
  GPUF_RETURN_IF_ERROR(ReadNameSteps(*host, m.node_name_steps));

  Reader c(*collection, "collection.");
  m.started_at_unix_ns = c.Int("started_at_unix_ns");
  m.ended_at_unix_ns = c.Int("ended_at_unix_ns");
  m.started_monotonic_ns = c.Int("started_monotonic_ns", false);
  m.ended_monotonic_ns = c.Int("ended_monotonic_ns", false);
  m.complete = c.Bool("complete");
  m.incomplete_reason = c.String("incomplete_reason", false);
  m.tz_env = c.String("tz_env", false);
  m.utc_offset_seconds = static_cast<int>(c.Int("utc_offset_seconds", false));
  GPUF_RETURN_IF_ERROR(c.status());

  Reader o(*options, "options.");
  m.root = o.String("root", false);
  m.probe_timeout_ms = o.Int("probe_timeout_ms", false);
  m.deadline_ms = o.Int("deadline_ms", false);
  m.plugin_pattern = o.String("plugin_pattern", false);
  m.exec_mode = o.String("exec_mode", false);
  m.no_driver = o.Bool("no_driver");
  m.fixed_time = o.Bool("fixed_time");
  GPUF_RETURN_IF_ERROR(o.status());

  if (auto it = j.find("redaction"); it != j.end() && it->is_object()) {
    Reader red(*it, "redaction.");
    m.redaction.redacted = red.Bool("redacted");
    m.redaction.by = red.String("by", false);
    m.redaction.user_patterns = static_cast<int>(red.Int("user_patterns", false));
    GPUF_RETURN_IF_ERROR(red.status());
    if (auto classes = it->find("classes"); classes != it->end() && classes->is_array()) {
      for (const auto& c : *classes) {
        if (!c.is_string()) return Status::BadInput("manifest field 'redaction.classes' holds a non-string");
        m.redaction.classes.push_back(c.get<std::string>());
      }
    }
  }
  for (size_t i = 0; i < artifacts->size(); ++i) {
    ManifestArtifact a;
    GPUF_RETURN_IF_ERROR(ReadArtifact((*artifacts)[i], "artifacts[" + std::to_string(i) + "]", a));
    m.artifacts.push_back(std::move(a));
  }
  GPUF_RETURN_IF_ERROR(ReadOrigin(j, m.origin));
  return m;
}

}  // namespace gpuf
