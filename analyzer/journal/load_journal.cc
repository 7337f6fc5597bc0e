// The journal's loaders: a slice stored line by line, parsing on the
// reading thread while the rows go into SQLite on a worker (batch_pipe.h).
#include <optional>
#include <string>

#include "analyzer/journal/batch_pipe.h"
#include "analyzer/journal/journal_line_loader.h"
#include "analyzer/load/member_loaders.h"
#include "common/journal_slices.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

std::optional<int64_t> BootOffset(const std::string& instance) {
  if (instance.rfind("boot:", 0) != 0) return std::nullopt;
  try {
    return std::stoll(instance.substr(5));
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

JournalLineLoader::JournalLineLoader(LoadContext& ctx, const MemberInput& in)
    : ctx_(ctx), in_(in), boot_(BootOffset(in.artifact.instance)) {}

void JournalLineLoader::Parse(int number, std::string_view line, Row& row, bool classify) {
  row.number = number;
  row.blank = line.empty();
  row.parsed = true;
  row.event.reset();
  if (row.blank) return;
  if (!row.entry) row.entry.emplace();
  if (!ParseJournalJsonLine(line, *row.entry)) {
    row.entry.reset();
  } else if (classify) {
    row.event = ClassifyJournalEntry(*row.entry);
  }
}

void JournalLineLoader::Keep(int number, std::string_view line, Row& row) {
  row.number = number;
  row.parsed = false;
  row.text.assign(line);
}

void JournalLineLoader::ParseAndStore(Row& row) {
  if (!row.parsed) Parse(row.number, row.text, row);
  Store(row);
}

void JournalLineLoader::Store(const Row& row) {
  if (row.blank) return;
  if (!row.entry) {
    ctx_.Warn(in_.artifact_id, in_.output.member, row.number, "not a journal JSON object");
    return;
  }
  const JournalEntry& e = *row.entry;
  ctx_.journal_boot_ends().Note(e.boot_id, boot_, e.realtime_us, e.monotonic_us);
  JournalEvent classified;
  const JournalEvent& event = row.event ? *row.event : (classified = ClassifyJournalEntry(e));
  if (ctx_.StoresJournalEntry(e, event)) StoreEntry(row.number, e, event);
  // The plugin's own lines; PID 1's about its unit stay systemd's.
  if (in_.artifact.name == kPluginJournalSlice && !FromSystemd(e)) {
    StorePluginJournalLine(ctx_, in_, row.number, e);
    plugin_configs_.Add({row.number, std::string_view(e.message).substr(0, LoadContext::kMaxLineBytes)});
  }
}

void JournalLineLoader::StoreEntry(int number, const JournalEntry& e, const JournalEvent& event) {
  ctx_.Run("INSERT INTO journal_entries (artifact_id, line, boot_offset, realtime_us, monotonic_us, "
           "source_monotonic_us, boot_id, unit, identifier, pid, priority, transport, event, event_subject, message) "
           "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
           in_.artifact_id, number, boot_, e.realtime_us, e.monotonic_us, e.source_monotonic_us,
           NullIfEmpty(e.boot_id), NullIfEmpty(e.unit), NullIfEmpty(e.identifier), e.pid, e.priority,
           NullIfEmpty(e.transport), NullIfEmpty(event.kind), NullIfEmpty(event.subject),
           ctx_.CapLine(in_.artifact_id, in_.output.member, number, e.message));
}

void JournalLineLoader::Finish() { StorePluginConfigScan(ctx_, in_, std::nullopt, plugin_configs_.Finish()); }

namespace {

// A journal slice as it streams, stored on the worker. While the worker is
// behind, the reading thread parses and classifies each entry; while it has
// time to spare, the worker does both (when the entries it stores are few,
// as for the milestones timeline, parsing is most of the work left).
class JournalLoader : public StreamedLineLoader {
 public:
  JournalLoader(LoadContext& ctx, const MemberInput& in, bool threaded)
      : lines_(ctx, in), rows_([this](std::vector<JournalLineLoader::Row>& batch) {
                          for (auto& row : batch) lines_.ParseAndStore(row);
                        },
                        threaded) {}

  void Line(int number, std::string_view line) override {
    const bool behind = rows_.WorkerBehind();
    if (rows_.threaded() && !behind) {
      rows_.Emplace([&](JournalLineLoader::Row& row) { JournalLineLoader::Keep(number, line, row); });
    } else {
      rows_.Emplace([&](JournalLineLoader::Row& row) { JournalLineLoader::Parse(number, line, row, behind); });
    }
  }

  void End() override {
    rows_.Close();
    lines_.Finish();
  }

 private:
  JournalLineLoader lines_;
  BatchPipe<JournalLineLoader::Row> rows_;  // last: its worker is stopped before the loader above goes
};

}  // namespace

std::unique_ptr<StreamedLineLoader> NewJournalLoader(LoadContext& ctx, const MemberInput& in, bool threaded) {
  return std::make_unique<JournalLoader>(ctx, in, threaded);
}

void LoadJournal(LoadContext& ctx, const MemberInput& in) {
  JournalLineLoader loader(ctx, in);
  ForEachLine(in.bytes, [&](int number, std::string_view line) { loader.Line(number, line); });
  loader.Finish();
}

}  // namespace gpuf
