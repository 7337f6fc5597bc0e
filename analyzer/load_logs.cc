// Loader for the device plugin's own logs: pod log files (CRI format) and
// `crictl logs -t` output, taken apart into log_lines, with the plugin's
// "Running with config:" dumps into plugin_config.
#include <cstdint>
#include <deque>
#include <string_view>

#include "analyzer/batch_pipe.h"
#include "analyzer/member_loaders.h"
#include "chain/cri_log.h"
#include "analyzer/parsers/plugin_log.h"

namespace gpuf {

namespace {

std::optional<std::string> ContainerForLog(LoadContext& ctx, const MemberInput& in) {
  if (!in.artifact.container_id.empty()) return in.artifact.container_id;
  auto s = ctx.db().Prepare("SELECT id FROM containers WHERE bundle_id = ? AND log_path = ?");
  if (!s.ok()) return std::nullopt;
  s->Bind(1, ctx.bundle_id()).Bind(2, std::string_view(in.artifact.instance));
  if (s->Step()) return s->ColumnText(0);
  return std::nullopt;
}

// A record taken apart, ready to store.
struct LogRow {
  const CriLogRecord* record;
  PluginLine line;
};

void StoreLogRows(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                  const std::vector<LogRow>& batch) {
  for (const LogRow& row : batch) {
    const CriLogRecord& r = *row.record;
    StorePluginLogLine(ctx, in, container, r.line, r.time_ns, r.stream.empty() ? in.output.stream : r.stream,
                       row.line);
  }
}

// Writes a log_lines row a record and returns the messages without their
// headers. Headers are read and messages classified on this thread while a
// worker stores the rows of the records before; the database is the
// worker's until the pipe closes. A message is a view of its record's tail
// (the header cut off); one that is not (a header ReadPluginLine rewrote)
// is a view of its copy in `copies`.
std::vector<LogMessage> LoadLogRows(LoadContext& ctx, const MemberInput& in, const ParsedCriLog& parsed,
                                    const std::optional<std::string>& container, std::deque<std::string>& copies) {
  std::vector<LogMessage> messages;
  messages.reserve(parsed.records.size());
  // Small logs are stored on this thread: a thread costs more than it saves.
  const bool threaded = parsed.records.size() >= 4096;
  BatchPipe<LogRow> store(
      [&](const std::vector<LogRow>& batch) { StoreLogRows(ctx, in, container, batch); }, threaded);
  for (const auto& r : parsed.records) {
    LogRow row{&r, ReadPluginLine(r.message)};
    std::string_view record(r.message), message(row.line.message);
    if (record.ends_with(message)) {
      messages.push_back({r.line, record.substr(record.size() - message.size())});
    } else {
      messages.push_back({r.line, copies.emplace_back(message)});
    }
    store.Add(std::move(row));
  }
  store.Close();
  return messages;
}

void LoadRecords(LoadContext& ctx, const MemberInput& in, const ParsedCriLog& parsed) {
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  std::optional<std::string> container = ContainerForLog(ctx, in);
  std::deque<std::string> copies;
  StorePluginConfigs(ctx, in, container, LoadLogRows(ctx, in, parsed, container, copies));
}

}  // namespace

void StorePluginConfigs(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        const std::vector<LogMessage>& lines) {
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

void StorePluginLogLine(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        int line, std::optional<int64_t> time_ns, std::string_view stream, const PluginLine& text) {
  ctx.Run("INSERT INTO log_lines (artifact_id, container_id, line, time_ns, stream, severity, source_file, event, "
          "message) VALUES (?,?,?,?,?,?,?,?,?)",
          in.artifact_id, container, line, time_ns, stream, NullIfEmpty(text.severity), NullIfEmpty(text.source_file),
          text.event, ctx.CapLine(in.artifact_id, in.output.member, line, text.message));
}

void LoadPluginLogFile(LoadContext& ctx, const MemberInput& in) { LoadRecords(ctx, in, ParseCriLog(in.bytes)); }

void LoadCrictlLogs(LoadContext& ctx, const MemberInput& in) {
  LoadRecords(ctx, in, ParseCrictlTimestampedLogs(in.bytes));
}

void StorePluginJournalLine(LoadContext& ctx, const MemberInput& in, int line, const JournalEntry& entry) {
  // The journal row beside this one already warned about an overlong message.
  std::string_view message = std::string_view(entry.message).substr(0, LoadContext::kMaxLineBytes);
  PluginLine plugin_line = ReadPluginLine(std::string(message));
  std::optional<int64_t> time_ns;
  if (entry.realtime_us && *entry.realtime_us >= 0 && *entry.realtime_us <= INT64_MAX / 1000) {
    time_ns = *entry.realtime_us * 1000;
  }
  ctx.Run("INSERT INTO log_lines (artifact_id, line, time_ns, stream, severity, source_file, event, message) "
          "VALUES (?,?,?,?,?,?,?,?)",
          in.artifact_id, line, time_ns, in.output.stream, NullIfEmpty(plugin_line.severity),
          NullIfEmpty(plugin_line.source_file), plugin_line.event, plugin_line.message);
}

}  // namespace gpuf
