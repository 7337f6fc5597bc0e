// What `gpuforensics diff A B` found, as values: each bundle's snapshot
// (its identity, the facts of the fact table, the device-plugin state), the
// facts paired by section, whether both come from one node and, for one
// node, the recovery check. The renderer (analyzer/render/render_diff.h)
// sees only these; bundle_diff.h computes them.
#ifndef GPUF_ANALYZER_DIFF_DIFF_RESULT_H_
#define GPUF_ANALYZER_DIFF_DIFF_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuf {

// How two values of a fact are shown and compared. Values are kept as text
// in a canonical form: kCount an integer, kSeconds with three decimals,
// kTime Unix ns UTC; equal text means the same fact.
enum class FactKind { kText, kCount, kSeconds, kTime };
const char* FactKindName(FactKind kind);  // "text" | "count" | "seconds" | "time"

struct DiffFact {
  std::string section;  // id from DiffSections()
  std::string name;
  FactKind kind = FactKind::kText;
  std::string value;
};

// A device-plugin container as one bundle's runtime listed it.
struct SeenPluginContainer {
  std::string id;  // full 64-hex
  std::string state;
  std::optional<int64_t> attempt;
  std::optional<int64_t> created_at_ns;
  std::string pod_uid;
};

struct BundleSnapshot {
  std::string path;  // as given
  std::string node_name, machine_id, boot_id;  // "" when unknown
  std::string node_zone;  // IANA name the bundle records, "" when unknown
  int64_t collected_at_ns = 0;
  std::vector<DiffFact> facts;  // in fact-table order
  std::vector<SeenPluginContainer> plugin_containers;  // newest first
  std::string registration;  // chain step status: "ok" | "failed" | "unknown"
  std::optional<std::string> allocatable;  // Node's nvidia.com/gpu, nullopt when absent
  std::optional<int64_t> gpus;  // host nvidia-smi count, else PCI count; nullopt when neither
  // What the comparison cannot vouch for: an incomplete collection, members
  // missing or not matching the manifest ("MEMBER: problem"). Empty when none.
  std::vector<std::string> gaps;
};

struct FactDiff {
  std::string name;
  FactKind kind = FactKind::kText;
  std::optional<std::string> a, b;  // nullopt: absent from that bundle
  bool same() const { return a == b; }
};

struct SectionDiff {
  std::string id;
  std::string title;
  std::vector<FactDiff> facts;  // A's order, then those only B has
  int different = 0;
  int same = 0;
};

enum class NodeRelation { kSameBoot, kSameNodeOtherBoot, kDifferentNodes, kUnknown };
const char* NodeRelationName(NodeRelation r);  // "same_boot" | "same_node_other_boot" | "different_nodes" | "unknown"

enum class RecoveryVerdict { kRecovered, kNotRecreated, kRecreatedNotRecovered, kUnknown };
const char* RecoveryVerdictName(RecoveryVerdict v);  // "recovered" | "not_recreated" | "recreated_not_recovered" | "unknown"

// Before (A) and after (B) on the same node.
struct RecoveryCheck {
  RecoveryVerdict verdict = RecoveryVerdict::kUnknown;
  std::optional<SeenPluginContainer> a_container, b_container;  // newest plugin container of each
  std::optional<bool> recreated;  // nullopt when either has no plugin container
  std::optional<std::string> a_container_in_b;  // its state in B; nullopt when B no longer lists it
  std::string registration_a, registration_b;
  std::optional<std::string> allocatable_a, allocatable_b;
  std::optional<int64_t> gpus_a, gpus_b;
  bool b_collected_first = false;  // the "after" bundle is the older one
  std::string summary;  // one line
};

struct BundleDiff {
  BundleSnapshot a, b;  // facts dropped; identity kept for the header
  NodeRelation relation = NodeRelation::kUnknown;
  std::string relation_reason;  // "machine-id equal", "node names differ", ...
  std::optional<RecoveryCheck> recovery;  // only for the same node
  std::vector<SectionDiff> sections;  // those with a fact in either bundle
  int different = 0;
  int same = 0;
};

struct DiffSection {
  const char* id;
  const char* title;
};
// The sections in the order they are shown.
const std::vector<DiffSection>& DiffSections();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_DIFF_DIFF_RESULT_H_
