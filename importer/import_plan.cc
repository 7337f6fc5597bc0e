#include "importer/import_plan.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "collector/bundle_manifest.h"
#include "collector/bundle_writer.h"
#include "collector/secrets.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/manifest.h"
#include "common/vocabulary.h"
#include "common/work_dir.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace gpuf {

namespace {

// How a logical name is stored: the artifact table's kind; an unknown name
// (no adapter makes one) is kept as a file.
std::string_view KindForName(const std::string& name) {
  const ArtifactRow* row = FindArtifact(name);
  return ArtifactKindName(row ? row->kind : ArtifactKind::kFile);
}

}  // namespace

bool ImportPlan::Has(std::string_view name) const {
  for (const auto& a : artifacts) {
    if (a.name == name) return true;
  }
  return false;
}

std::string StreamForName(const std::string& name) {
  const ArtifactRow* row = FindArtifact(name);
  return std::string(row ? row->stream() : kStreamContent);
}

Status WriteImportedBundle(const ImportPlan& plan, const std::vector<std::string>& cannot_show,
                           const std::string& output_path, Replace replace) {
  GPUF_ASSIGN_OR_RETURN(WorkDir staging, WorkDir::Create("", "gpuforensics-import-"));
  std::vector<ImportedArtifact> artifacts = plan.artifacts;
  // What another tool captured is scrubbed as collect scrubs what it reads:
  // secrets never reach the bundle, whatever its source.
  std::vector<int> redactions(artifacts.size(), 0);
  for (size_t i = 0; i < artifacts.size(); ++i) {
    redactions[i] = RedactText(artifacts[i].bytes, RedactionFor(artifacts[i].name));
  }
  std::vector<size_t> order(artifacts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&artifacts](size_t a, size_t b) {
    return std::tie(artifacts[a].name, artifacts[a].instance) < std::tie(artifacts[b].name, artifacts[b].instance);
  });
  Manifest m = NewBundleManifest(GPUF_VERSION);
  m.hostname = plan.hostname.empty() ? plan.journal_hostname : plan.hostname;
  m.node_name = m.hostname;
  m.boot_id = plan.boot_id;
  m.started_at_unix_ns = m.ended_at_unix_ns = plan.captured_at_ns;
  m.utc_offset_seconds = plan.utc_offset_seconds;
  m.plugin_pattern = std::string(kDefaultPluginPattern);
  m.origin = ManifestOrigin{plan.kind, plan.source_name, cannot_show, {}, plan.capture_next};
  for (const auto& in : plan.inputs) {
    m.origin.inputs.push_back({in.path, in.read_as, in.artifacts, in.note, in.not_read});
  }
  std::vector<ProbeResult> staged;
  for (size_t i : order) {
    const ImportedArtifact& a = artifacts[i];
    ProbeResult r;
    ManifestArtifact& out = r.artifact;
    out.redactions = redactions[i];
    out.name = a.name;
    out.instance = a.instance;
    out.kind = std::string(KindForName(a.name));
    out.context = !a.context.empty() ? a.context : a.container_id.empty() ? "host" : "container";
    out.container_id = a.container_id;
    out.started_at_unix_ns = out.ended_at_unix_ns = plan.captured_at_ns;
    out.status = ProbeStatus::kOk;
    out.exit_code = a.exit_code;
    out.source_file = a.note.empty() ? a.source_file : a.source_file + " (" + a.note + ")";
    std::vector<std::pair<std::string, std::string_view>> streams = {{StreamForName(a.name), a.bytes}};
    if (out.kind == ArtifactKindName(ArtifactKind::kCommand)) streams.emplace_back(std::string(kStreamStderr), "");
    for (const auto& [stream, bytes] : streams) {
      std::string file = staging.path() + "/" + std::to_string(staged.size()) + "." + stream;
      GPUF_RETURN_IF_ERROR(WriteWholeFile(file, bytes));
      ManifestOutput o;
      o.stream = stream;
      out.outputs.push_back(std::move(o));
      r.staged.push_back({stream, file});
    }
    staged.push_back(std::move(r));
  }
  GPUF_ASSIGN_OR_RETURN(std::vector<BundleMember> members, AddStagedArtifacts(staged, m));
  return WriteBundle(output_path, SerializeManifest(m), std::move(members), plan.captured_at_ns / 1000000000LL,
                     replace);
}

}  // namespace gpuf
