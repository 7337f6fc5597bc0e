// Loaders for the container runtime's view: containers, their device
// cgroups, and what nvidia-smi saw inside the device-plugin containers.
#include "analyzer/member_loaders.h"
#include "analyzer/parsers/nvidia_smi_list.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

std::string FirstNonEmptyLine(std::string_view text) {
  std::string first;
  ForEachLine(text, [&](int, std::string_view line) {
    if (first.empty() && line.find_first_not_of(" \t") != std::string_view::npos) first = std::string(line);
  });
  return first;
}

}  // namespace

// Both streams of `nvidia-smi -L` run in the container arrive here; the
// outcome row is written once, from stdout, with stderr consulted through
// artifact_lines by the report.
void LoadContainerGpuView(LoadContext& ctx, const MemberInput& in) {
  if (in.output.stream != "stdout") return;
  const std::string& id = in.artifact.container_id;
  auto gpus = ParseNvidiaSmiList(in.bytes);
  bool ok = in.artifact.status == "ok" && !gpus.empty();
  if (!ok) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, detail) VALUES (?,?,?,?)",
            in.artifact_id, id, in.artifact.status == "ok" ? "other" : in.artifact.status,
            NullIfEmpty(FirstNonEmptyLine(in.bytes)));
    return;
  }
  for (const auto& g : gpus) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, line, gpu_index, name, uuid) "
            "VALUES (?,?,'ok',?,?,?,?)",
            in.artifact_id, id, g.line, g.index, g.name, g.uuid);
  }
}

}  // namespace gpuf
