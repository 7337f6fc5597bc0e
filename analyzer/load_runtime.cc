// Loaders for the container runtime's view: containers, their device
// cgroups, and what nvidia-smi saw inside the device-plugin containers.
#include "analyzer/member_loaders.h"
#include "analyzer/parsers/nvidia_smi_list.h"

namespace gpuf {

// Runs after LoadNvidiaSmiRun (see the table in loader.cc), whose outcome
// the error row repeats so that one table answers "what did the container see".
void LoadContainerGpuView(LoadContext& ctx, const MemberInput& in) {
  const std::string& id = in.artifact.container_id;
  auto gpus = ParseNvidiaSmiList(in.bytes);
  if (gpus.empty()) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, detail) "
            "SELECT artifact_id, ?, outcome, message FROM nvidia_smi_runs WHERE artifact_id = ?",
            id, in.artifact_id);
    return;
  }
  for (const auto& g : gpus) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, line, gpu_index, name, uuid) "
            "VALUES (?,?,'ok',?,?,?,?)",
            in.artifact_id, id, g.line, g.index, g.name, g.uuid);
  }
}

}  // namespace gpuf
