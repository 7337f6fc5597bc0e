// Loaders for what the host itself shows: GPUs, PCI, device nodes, the
// kubelet's device-plugin directory and the Node object (the journal's are
// analyzer/journal/load_journal.cc).
#include <optional>

#include "analyzer/load/member_loaders.h"
#include "common/journal_slices.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "formats/cgroup_facts.h"
#include "formats/kube_node.h"
#include "formats/listing.h"
#include "formats/nvidia_smi_list.h"
#include "formats/proc_nvidia.h"

namespace gpuf {

namespace {

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

void LoadSystemdUnits(LoadContext& ctx, const MemberInput& in) {
  SystemdShow show = ParseSystemctlShow(in.bytes);
  for (const auto& unit : show.units) {
    std::string id = unit.Get("Id");
    if (id.empty()) continue;
    // The line that says its state is the evidence; the unit's first when it is not shown.
    auto state_line = unit.lines.find("ActiveState");
    ctx.Run(
        "INSERT INTO systemd_units (artifact_id, line, unit, load_state, active_state, sub_state, n_restarts, "
        "main_pid) VALUES (?,?,?,?,?,?,?,?)",
        in.artifact_id, state_line == unit.lines.end() ? unit.line : state_line->second, id, unit.Get("LoadState"),
        unit.Get("ActiveState"), unit.Get("SubState"), ParseInt64(unit.Get("NRestarts")),
        ParseInt64(unit.Get("ExecMainPID")));
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

void LoadArtifactLines(LoadContext& ctx, const MemberInput& in) {
  ForEachLine(in.bytes, [&](int number, std::string_view line) {
    ctx.Run("INSERT INTO artifact_lines (artifact_id, stream, line, text) VALUES (?,?,?,?)", in.artifact_id,
            in.output.stream, number, ctx.CapLine(in.artifact_id, in.output.member, number, line));
  });
}

}  // namespace gpuf
