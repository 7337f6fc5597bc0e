// Loader for the device plugin's own logs: pod log files (CRI format) and
// `crictl logs -t` output, taken apart into log_lines, with the plugin's
// "Running with config:" dumps into plugin_config.
#include "analyzer/member_loaders.h"
#include "analyzer/parsers/cri_log.h"
#include "analyzer/parsers/klog.h"
#include "analyzer/parsers/plugin_log.h"

namespace gpuf {

namespace {

struct InnerHeader {
  std::string severity;
  std::string source_file;
  std::string message;
};

// Strips the klog or Go-log header the plugin wrote inside the CRI record.
InnerHeader StripInnerHeader(const std::string& text) {
  if (auto klog = ParseKlogHeader(text)) {
    return {std::string(1, klog->severity), klog->file + ":" + std::to_string(klog->source_line), klog->message};
  }
  if (auto golog = ParseGoLogHeader(text)) return {"", "", golog->message};
  return {"", "", text};
}

std::optional<std::string> ContainerForLog(LoadContext& ctx, const MemberInput& in) {
  if (!in.artifact.container_id.empty()) return in.artifact.container_id;
  auto s = ctx.db().Prepare("SELECT id FROM containers WHERE bundle_id = ? AND log_path = ?");
  if (!s.ok()) return std::nullopt;
  s->Bind(1, ctx.bundle_id()).Bind(2, std::string_view(in.artifact.instance));
  if (s->Step()) return s->ColumnText(0);
  return std::nullopt;
}

void LoadRecords(LoadContext& ctx, const MemberInput& in, const ParsedCriLog& parsed) {
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  std::optional<std::string> container = ContainerForLog(ctx, in);
  std::vector<std::string> messages;
  messages.reserve(parsed.records.size());
  for (const auto& r : parsed.records) {
    InnerHeader inner = StripInnerHeader(r.message);
    PluginEvent event = ClassifyPluginMessage(inner.message);
    std::optional<std::string> kind;
    if (event.kind != PluginEventKind::kUnknown) kind = PluginEventKindName(event.kind);
    std::string stream = r.stream.empty() ? in.output.stream : r.stream;
    ctx.Run("INSERT INTO log_lines (artifact_id, container_id, line, time_ns, stream, severity, source_file, event, "
            "message) VALUES (?,?,?,?,?,?,?,?,?)",
            in.artifact_id, container, r.line, r.time_ns, stream, NullIfEmpty(inner.severity),
            NullIfEmpty(inner.source_file), kind, ctx.CapLine(in.artifact_id, in.output.member, r.line, inner.message));
    messages.push_back(std::move(inner.message));
  }
  std::vector<LogMessage> lines;
  for (size_t i = 0; i < parsed.records.size(); ++i) lines.push_back({parsed.records[i].line, messages[i]});
  PluginConfigScan scan = FindPluginConfigs(lines);
  ctx.WarnAll(in.artifact_id, in.output.member, scan.warnings);
  for (const auto& c : scan.configs) {
    auto add = [&](const char* key, const std::string& value) {
      if (value.empty()) return;
      ctx.Run("INSERT INTO plugin_config (artifact_id, container_id, key, value, source, line) "
              "VALUES (?,?,?,?,'config_dump',?)",
              in.artifact_id, container, key, value, c.line);
    };
    if (c.fail_on_init_error) add("failOnInitError", *c.fail_on_init_error ? "true" : "false");
    if (c.pass_device_specs) add("passDeviceSpecs", *c.pass_device_specs ? "true" : "false");
    add("migStrategy", c.mig_strategy);
    add("deviceIDStrategy", c.device_id_strategy);
    add("nvidiaDriverRoot", c.nvidia_driver_root);
    add("deviceDiscoveryStrategy", c.device_discovery_strategy);
    std::string strategies;
    for (const auto& s : c.device_list_strategy) strategies += (strategies.empty() ? "" : ",") + s;
    add("deviceListStrategy", strategies);
    for (const auto& r : c.resource_names) add("resource", r);
  }
}

}  // namespace

void LoadPluginLogFile(LoadContext& ctx, const MemberInput& in) { LoadRecords(ctx, in, ParseCriLog(in.bytes)); }

void LoadCrictlLogs(LoadContext& ctx, const MemberInput& in) {
  LoadRecords(ctx, in, ParseCrictlTimestampedLogs(in.bytes));
}

}  // namespace gpuf
