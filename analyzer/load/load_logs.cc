// Loader for the device plugin's own logs: pod log files (CRI format) and
// `crictl logs -t` output, taken apart into log_lines, with the plugin's
// "Running with config:" dumps into plugin_config.
#include <cstdint>
#include <memory>
#include <string_view>

#include "analyzer/journal/batch_pipe.h"
#include "analyzer/load/member_loaders.h"
#include "common/text_lines.h"
#include "formats/cri_log.h"
#include "formats/plugin_log.h"

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
  CriLogRecord record;
  PluginLine line;
  bool classified = false;  // line.event is set (else Store classifies)
};

// A pod log of the plugin a line at a time: records are joined and their
// headers read on this thread while a worker classifies and stores the rows
// of the records before (this thread classifies while the worker is
// behind); the database is the worker's until End. Only the configuration
// dump being read is held, never the whole log.
class PluginLogLoader : public StreamedLineLoader {
 public:
  PluginLogLoader(LoadContext& ctx, const MemberInput& in, bool threaded)
      : ctx_(ctx), in_(in), container_(ContainerForLog(ctx, in)),
        reader_([this](CriLogRecord&& r) { Record(std::move(r)); }),
        store_([this](std::vector<LogRow>& batch) { Store(batch); }, threaded) {}

  void Line(int number, std::string_view line) override { reader_.Line(number, line); }

  // A record read elsewhere (`crictl logs -t` joins lines itself).
  void Record(CriLogRecord&& record) {
    store_.Emplace([&](LogRow& row) {
      row.record = std::move(record);
      row.line = ReadPluginHeader(row.record.message);
      row.classified = store_.WorkerBehind();
      if (row.classified) ClassifyPluginLine(row.line);
      configs_.Add({row.record.line, row.line.message});
    });
  }

  void End() override {
    reader_.End();
    store_.Close();
    ctx_.WarnAll(in_.artifact_id, in_.output.member, reader_.warnings());
    StorePluginConfigScan(ctx_, in_, container_, configs_.Finish());
  }

 private:
  void Store(std::vector<LogRow>& batch) {
    for (LogRow& row : batch) {
      if (!row.classified) ClassifyPluginLine(row.line);
      const CriLogRecord& r = row.record;
      StorePluginLogLine(ctx_, in_, container_, r.line, r.time_ns, r.stream.empty() ? in_.output.stream : r.stream,
                         row.line);
    }
  }

  LoadContext& ctx_;
  const MemberInput& in_;
  const std::optional<std::string> container_;
  CriLogReader reader_;
  PluginConfigFinder configs_;
  BatchPipe<LogRow> store_;  // last: its worker is stopped before the members above go
};

}  // namespace

std::unique_ptr<StreamedLineLoader> NewPluginLogLoader(LoadContext& ctx, const MemberInput& in, bool threaded) {
  return std::make_unique<PluginLogLoader>(ctx, in, threaded);
}

void StorePluginConfigScan(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                           const PluginConfigScan& scan) {
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

void StorePluginConfigs(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        const std::vector<LogMessage>& lines) {
  StorePluginConfigScan(ctx, in, container, FindPluginConfigs(lines));
}

void StorePluginLogLine(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        int line, std::optional<int64_t> time_ns, std::string_view stream, const PluginLine& text) {
  ctx.Run("INSERT INTO log_lines (artifact_id, container_id, line, time_ns, stream, severity, source_file, event, "
          "message) VALUES (?,?,?,?,?,?,?,?,?)",
          in.artifact_id, container, line, time_ns, stream, NullIfEmpty(text.severity), NullIfEmpty(text.source_file),
          text.event, ctx.CapLine(in.artifact_id, in.output.member, line, text.message));
}

void LoadPluginLogFile(LoadContext& ctx, const MemberInput& in) {
  PluginLogLoader loader(ctx, in, static_cast<int64_t>(in.bytes.size()) >= kThreadedMemberBytes);
  ForEachLine(in.bytes, [&](int number, std::string_view line) { loader.Line(number, line); });
  loader.End();
}

void LoadCrictlLogs(LoadContext& ctx, const MemberInput& in) {
  ParsedCriLog parsed = ParseCrictlTimestampedLogs(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  PluginLogLoader loader(ctx, in, static_cast<int64_t>(in.bytes.size()) >= kThreadedMemberBytes);
  for (CriLogRecord& r : parsed.records) loader.Record(std::move(r));
  loader.End();
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
