#include "analyzer/diff/diff_result.h"

namespace gpuf {

const char* FactKindName(FactKind kind) {
  switch (kind) {
    case FactKind::kText: return "text";
    case FactKind::kCount: return "count";
    case FactKind::kSeconds: return "seconds";
    case FactKind::kTime: return "time";
  }
  return "text";
}

const char* NodeRelationName(NodeRelation r) {
  switch (r) {
    case NodeRelation::kSameBoot: return "same_boot";
    case NodeRelation::kSameNodeOtherBoot: return "same_node_other_boot";
    case NodeRelation::kDifferentNodes: return "different_nodes";
    case NodeRelation::kUnknown: return "unknown";
  }
  return "unknown";
}

const char* RecoveryVerdictName(RecoveryVerdict v) {
  switch (v) {
    case RecoveryVerdict::kRecovered: return "recovered";
    case RecoveryVerdict::kNotRecreated: return "not_recreated";
    case RecoveryVerdict::kRecreatedNotRecovered: return "recreated_not_recovered";
    case RecoveryVerdict::kUnknown: return "unknown";
  }
  return "unknown";
}

const std::vector<DiffSection>& DiffSections() {
  static const std::vector<DiffSection> kSections = {
      {"versions", "Component versions"},
      {"plugin", "Device-plugin deployment"},
      {"plugin_config", "Device-plugin settings"},
      {"runtime_config", "Runtime and kubelet settings"},
      {"intervals", "Intervals of the boot at capture (seconds)"},
      {"gpu_counts", "GPUs seen at each step"},
      {"chain", "Chain verdict"},
      {"sockets", "Device-plugin directory (mtimes)"},
      {"findings", "Findings"},
  };
  return kSections;
}

}  // namespace gpuf
