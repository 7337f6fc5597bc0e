// Loaders for what the host itself shows: GPUs, PCI, device nodes, the
// kubelet's device-plugin directory, the Node object and the journal.
#include <optional>

#include "analyzer/journal/batch_pipe.h"
#include "analyzer/load/member_loaders.h"
#include "common/journal_slices.h"
#include "common/text_lines.h"
#include "formats/journal_event.h"
#include "formats/journal_json.h"
#include "formats/kube_node.h"
#include "formats/listing.h"
#include "formats/nvidia_smi_list.h"
#include "formats/proc_nvidia.h"

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

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

ParsedListing ListingWithWarnings(LoadContext& ctx, const MemberInput& in) {
  ParsedListing listing = ParseListing(in.bytes);
  for (int line : listing.bad_lines) ctx.Warn(in.artifact_id, in.output.member, line, "malformed listing row");
  return listing;
}

}  // namespace

void LoadNvidiaSmiList(LoadContext& ctx, const MemberInput& in) {
  for (const auto& g : ParseNvidiaSmiList(in.bytes)) {
    ctx.Run("INSERT INTO gpus (artifact_id, line, gpu_index, name, uuid, mig_devices) VALUES (?,?,?,?,?,?)",
            in.artifact_id, g.line, g.index, g.name, g.uuid, g.mig_devices);
  }
}

void LoadPciTable(LoadContext& ctx, const MemberInput& in) {
  PciTable table = ParsePciTable(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, table.warnings);
  for (const auto& f : table.rows) {
    ctx.Run("INSERT INTO pci_devices (artifact_id, line, address, vendor, device, class, role) VALUES (?,?,?,?,?,?,?)",
            in.artifact_id, f.line, f.address, f.vendor, NullIfEmpty(f.device), NullIfEmpty(f.pci_class), f.role);
  }
}

void LoadDeviceNodes(LoadContext& ctx, const MemberInput& in) {
  for (const auto& r : ListingWithWarnings(ctx, in).rows) {
    ctx.Run("INSERT INTO device_nodes (artifact_id, line, path, type, major, minor, mode, uid, gid, mtime_ns) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            in.artifact_id, r.line, r.path, r.type, r.major, r.minor, r.mode, r.uid, r.gid, r.mtime_ns);
  }
}

void LoadCharLinks(LoadContext& ctx, const MemberInput& in) {
  for (const auto& r : ListingWithWarnings(ctx, in).rows) {
    std::string name = BaseName(r.path);
    std::optional<int64_t> major, minor;
    size_t colon = name.find(':');
    if (colon != std::string::npos) {
      try {
        major = std::stoll(name.substr(0, colon));
        minor = std::stoll(name.substr(colon + 1));
      } catch (...) {
        major = minor = std::nullopt;
      }
    }
    ctx.Run("INSERT INTO char_links (artifact_id, line, name, major, minor, target, mtime_ns) VALUES (?,?,?,?,?,?,?)",
            in.artifact_id, r.line, name, major, minor, r.type == "l" ? NullIfEmpty(r.link_target) : std::nullopt,
            r.mtime_ns);
  }
}

void LoadPluginSockets(LoadContext& ctx, const MemberInput& in) {
  for (const auto& r : ListingWithWarnings(ctx, in).rows) {
    if (r.type == "d" && r.path == "/var/lib/kubelet/device-plugins") continue;  // the directory itself
    ctx.Run("INSERT INTO plugin_sockets (artifact_id, line, name, type, size_bytes, mtime_ns) VALUES (?,?,?,?,?,?)",
            in.artifact_id, r.line, BaseName(r.path), r.type, r.size_bytes, r.mtime_ns);
  }
}

void LoadNodeResources(LoadContext& ctx, const MemberInput& in) {
  for (const auto& r : ParseNodeResources(in.bytes)) {
    ctx.Run("INSERT INTO node_resources (artifact_id, field, resource, quantity) VALUES (?,?,?,?)", in.artifact_id,
            r.field, r.resource, r.quantity);
  }
  for (const auto& c : ParseNodeConditions(in.bytes)) {
    ctx.Run("INSERT INTO node_conditions (artifact_id, type, status, reason, message, last_transition_ns) "
            "VALUES (?,?,?,?,?,?)",
            in.artifact_id, c.type, c.status, NullIfEmpty(c.reason), NullIfEmpty(c.message), c.last_transition_ns);
  }
}

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

void LoadArtifactLines(LoadContext& ctx, const MemberInput& in) {
  ForEachLine(in.bytes, [&](int number, std::string_view line) {
    ctx.Run("INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (?,?,?,?)", in.artifact_id,
            in.output.stream, number, ctx.CapLine(in.artifact_id, in.output.member, number, line));
  });
}

}  // namespace gpuf
