// Loaders for what the NVIDIA driver and NVML report: nvidia-smi runs and
// XML, /proc/driver/nvidia, /proc/devices.
#include <cstdio>

#include "analyzer/load/member_loaders.h"
#include "common/artifacts.h"
#include "formats/nvidia_smi_error.h"
#include "formats/nvidia_smi_query_text.h"
#include "formats/nvidia_smi_xml.h"
#include "formats/proc_nvidia.h"
#include "formats/version_strings.h"

namespace gpuf {

namespace {

std::optional<std::string> YesNo(const std::optional<bool>& v) {
  if (!v) return std::nullopt;
  return std::string(*v ? "Yes" : "No");
}

// Driver versions: "535.161.07"; the suffix column says what kind of module.
void InsertVersion(LoadContext& ctx, const MemberInput& in, const char* component, const std::string& version,
                   const std::optional<std::string>& suffix) {
  std::optional<VersionParts> parts = SplitVersion(version);
  ctx.Run("INSERT INTO versions (artifact_id, component, version, major, minor, patch, suffix) VALUES (?,?,?,?,?,?,?)",
          in.artifact_id, component, version, parts ? std::optional<int64_t>(parts->major) : std::nullopt,
          parts ? std::optional<int64_t>(parts->minor) : std::nullopt, parts ? parts->patch : std::nullopt, suffix);
}

// The nvidia-smi arguments of the view an artifact holds: "-L", "-q -x", or
// "" for its table.
std::string CommandOf(const ManifestArtifact& a) {
  if (a.name == artifact::kHostNvidiaSmiQueryXml) return "-q -x";
  return a.name.size() > 5 && a.name.compare(a.name.size() - 5, 5, "_list") == 0 ? "-L" : "";
}

// Where the run happened: a saved output whose text and name do not say is 'unknown'.
std::string ViewOf(const ManifestArtifact& a) {
  if (a.context == "container" || a.context == "unknown") return a.context;
  return "host";
}

}  // namespace

// One run of nvidia-smi; stdout and stderr together.
void LoadNvidiaSmiRun(LoadContext& ctx, const MemberInput& in) {
  const ManifestArtifact& a = in.artifact;
  NvidiaSmiRun run = ClassifyNvidiaSmi(in.bytes, in.stderr_bytes, a.exit_code);
  if (a.timed_out && (run.outcome == NvidiaSmiOutcome::kOther || run.outcome == NvidiaSmiOutcome::kOk)) {
    // A hang says more than output nobody recognised; a failure it printed
    // before it hung (GPU is lost, Unknown Error) says more still.
    char within[48] = "before the collector's deadline";
    if (a.duration_ns > 0) std::snprintf(within, sizeof within, "in %.1f s", a.duration_ns / 1e9);
    run.outcome = NvidiaSmiOutcome::kTimedOut;
    run.message = std::string("nvidia-smi did not finish ") + within + " and was stopped (a hung driver or GPU)";
  }
  ctx.Run("INSERT INTO nvidia_smi_runs (artifact_id, view, container_id, command, outcome, message, "
          "nvml_library_version, handle_errors) VALUES (?,?,?,?,?,?,?,?)",
          in.artifact_id, ViewOf(a), NullIfEmpty(a.container_id), CommandOf(a),
          NvidiaSmiOutcomeName(run.outcome), NullIfEmpty(run.message), run.nvml_library_version,
          static_cast<int64_t>(run.handle_errors.size()));
  ctx.WarnAll(in.artifact_id, in.output.member, run.warnings);
}

void LoadNvidiaSmiXml(LoadContext& ctx, const MemberInput& in) {
  bool is_xml = in.bytes.find("<nvidia_smi_log") != std::string_view::npos;
  // A failed run prints its error where the XML would be; nvidia_smi_runs
  // records that, and there is no document to complain about.
  if (in.artifact.status != ProbeStatus::kOk && !is_xml) return;
  // Imported from a saved `nvidia-smi -q`, the same report arrives as text.
  NvidiaSmiXml xml = is_xml ? NvidiaSmiXml{} : ParseNvidiaSmiQueryText(in.bytes);
  const bool is_text = !xml.gpus.empty();
  if (!is_text) xml = ParseNvidiaSmiXml(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, xml.warnings);
  if (xml.driver_version) {
    InsertVersion(ctx, in, "nvidia-driver-nvml", *xml.driver_version, std::nullopt);
  }
  if (xml.cuda_version) InsertVersion(ctx, in, "cuda", *xml.cuda_version, std::nullopt);
  for (const auto& g : xml.gpus) {
    // A GPU without its UUID (a pasted part of -q) is still a GPU with these
    // properties; it joins no -L row.
    if (!g.uuid && !is_text) continue;
    ctx.Run("UPDATE gpus SET pci_bus_id = ?, minor_number = ?, serial = ?, persistence_mode = ?, mig_mode = ?, "
            "mig_mode_pending = ?, fabric_state = ?, fabric_status = ?, retired_pages_sbe = ?, retired_pages_dbe = ?, "
            "retired_pages_pending = ?, remapped_rows_pending = ?, remapped_rows_failure = ?, name = coalesce(name, ?) "
            "WHERE uuid = ?",
            g.pci_bus_id, g.minor_number, g.serial, g.persistence_mode, g.mig_current, g.mig_pending, g.fabric_state,
            g.fabric_status, g.retired_pages.single_bit_count, g.retired_pages.double_bit_count,
            YesNo(g.retired_pages.pending), YesNo(g.remapped_rows.pending), YesNo(g.remapped_rows.failure),
            g.product_name, g.uuid);
    if (g.uuid && ctx.Changes() > 0) continue;
    ctx.Run("INSERT INTO gpus (artifact_id, name, uuid, pci_bus_id, minor_number, serial, persistence_mode, mig_mode, "
            "mig_mode_pending, fabric_state, fabric_status, retired_pages_sbe, retired_pages_dbe, "
            "retired_pages_pending, remapped_rows_pending, remapped_rows_failure) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            in.artifact_id, g.product_name, g.uuid, g.pci_bus_id, g.minor_number, g.serial, g.persistence_mode,
            g.mig_current, g.mig_pending, g.fabric_state, g.fabric_status, g.retired_pages.single_bit_count,
            g.retired_pages.double_bit_count, YesNo(g.retired_pages.pending), YesNo(g.remapped_rows.pending),
            YesNo(g.remapped_rows.failure));
  }
}

void LoadDriverVersion(LoadContext& ctx, const MemberInput& in) {
  NvidiaDriverVersion v = ParseNvidiaDriverVersion(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, v.warnings);
  if (!v.version) return;
  InsertVersion(ctx, in, "nvidia-kernel-module", *v.version,
                v.open_module ? std::optional<std::string>(*v.open_module ? "open" : "proprietary") : std::nullopt);
}

void LoadDriverGpu(LoadContext& ctx, const MemberInput& in) {
  NvidiaGpuInformation info = ParseNvidiaGpuInformation(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, info.warnings);
  std::optional<int64_t> excluded;
  if (info.excluded) excluded = *info.excluded ? 1 : 0;
  ctx.Run("INSERT INTO driver_gpus (artifact_id, bus_location, model, uuid, device_minor, excluded) "
          "VALUES (?,?,?,?,?,?)",
          in.artifact_id, info.bus_location, info.model, info.uuid, info.device_minor, excluded);
}

void LoadProcDevices(LoadContext& ctx, const MemberInput& in) {
  ProcDevices devices = ParseProcDevices(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, devices.warnings);
  for (const auto& [name, major] : devices.character_majors) {
    ctx.Run("INSERT INTO char_device_majors (artifact_id, name, major) VALUES (?,?,?)", in.artifact_id, name, major);
  }
}

}  // namespace gpuf
