// Whether the bundle shows a node without an NVIDIA GPU: the chain's
// judgement (chain/chain_steps.h NotAGpuNode: no NVIDIA GPU on the PCI
// bus, no driver, no /dev/nvidia*, none counted on the Node), and no GPU
// named anywhere in the bundle (any boot's kernel lines: "GPU at PCI", an
// Xid, a fall off the bus, a failed initialisation; nvidia-smi).
// On such a node the chain's GPU faults do not apply (a device-plugin
// DaemonSet scheduled there finds nothing, as it should); only rules that
// say `applies_to: any-node` run. Without the PCI listing it is not known,
// and every rule runs.
#ifndef GPUF_ANALYZER_RULES_NODE_KIND_H_
#define GPUF_ANALYZER_RULES_NODE_KIND_H_

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/database.h"
#include "analyzer/rules/subject_keys.h"
#include "common/status.h"

namespace gpuf {

// Why the bundle's node has no NVIDIA GPU; nullopt when it has one or that
// is not known. Fails when the database does.
Result<std::optional<std::string>> WhyNotAGpuNode(Database& db, int64_t bundle_id, const GpuDirectory& gpus);

// Fills temp.not_a_gpu_node (made by PrepareRuleSql) with `reason`, or
// leaves it empty: rules read the engine's verdict there.
Status WriteNodeKind(Database& db, const std::optional<std::string>& reason);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_NODE_KIND_H_
