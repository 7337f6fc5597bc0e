// Which of the bundle's GPUs the node showed at capture: on the PCI bus,
// listed by the host's NVML. A GPU is every one the bundle names
// (subject_keys.h), an earlier boot's kernel lines included, so a GPU that
// fell off the bus before a reboot and never came back is "not on the bus"
// rather than forgotten. Where the capture is missing, or cannot tell one
// GPU from another (NVML's list without PCI addresses the driver's files
// would join), the answer is unknown, never "no".
//
// The engine writes it to the temporary table `gpu_subjects`, which rules'
// SQL reads instead of joining identities by hand, and recovery.h reads it
// to see which faults were undone.
#ifndef GPUF_ANALYZER_RULES_GPU_PRESENCE_H_
#define GPUF_ANALYZER_RULES_GPU_PRESENCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/subject_keys.h"
#include "common/status.h"

namespace gpuf {

struct GpuPresence {
  std::string gpu{};  // its key (subject_keys.h)
  std::string bus{};  // sysfs form; "" when only its UUID is known
  std::string uuid{};
  std::optional<bool> on_pci{};  // nullopt: no PCI listing was captured
  std::optional<bool> listed{};  // by the host's NVML; nullopt: not captured, or it cannot be told
  std::optional<int64_t> pci_artifact_id{};
  std::optional<int64_t> nvml_artifact_id{};
};

Result<std::vector<GpuPresence>> LoadGpuPresence(Database& db, int64_t bundle_id, const GpuDirectory& gpus);

// Fills temp.gpu_subjects (made by PrepareRuleSql, rule_sql.h) with `presence`.
Status WriteGpuSubjects(Database& db, const std::vector<GpuPresence>& presence);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_GPU_PRESENCE_H_
