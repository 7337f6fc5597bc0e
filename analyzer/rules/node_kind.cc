#include "analyzer/rules/node_kind.h"

#include "analyzer/timeline/chain_verdict.h"

namespace gpuf {

Result<std::optional<std::string>> WhyNotAGpuNode(Database& db, int64_t bundle_id, const GpuDirectory& gpus) {
  GPUF_ASSIGN_OR_RETURN(ChainFacts facts, ReadChainFacts(db, bundle_id));
  if (!NotAGpuNode(facts) || !gpus.gpus().empty()) return std::optional<std::string>();
  return std::optional<std::string>(
      "not a GPU node: no NVIDIA GPU on the PCI bus, no NVIDIA driver loaded, no /dev/nvidia* and none counted on "
      "the Node");
}

Status WriteNodeKind(Database& db, const std::optional<std::string>& reason) {
  GPUF_RETURN_IF_ERROR(db.Exec("DELETE FROM temp.not_a_gpu_node"));
  if (!reason) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare("INSERT INTO temp.not_a_gpu_node (reason) VALUES (?)"));
  s.Bind(1, *reason);
  return s.Run();
}

}  // namespace gpuf
