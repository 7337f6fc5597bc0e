#include "analyzer/diff/bundle_diff.h"

#include <map>
#include <utility>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/diff/diff_facts.h"

namespace gpuf {

namespace {

std::pair<NodeRelation, std::string> Relate(const BundleSnapshot& a, const BundleSnapshot& b) {
  bool same_node = false;
  std::string reason;
  if (!a.machine_id.empty() && !b.machine_id.empty()) {
    same_node = a.machine_id == b.machine_id;
    reason = same_node ? "machine-id equal" : "machine-id differs";
  } else if (!a.node_name.empty() && !b.node_name.empty()) {
    same_node = a.node_name == b.node_name;
    reason = same_node ? "node name equal, no machine-id to confirm" : "node names differ, no machine-id";
  } else {
    return {NodeRelation::kUnknown, "neither machine-id nor node name in both bundles"};
  }
  if (!same_node) return {NodeRelation::kDifferentNodes, reason};
  if (!a.boot_id.empty() && a.boot_id == b.boot_id) return {NodeRelation::kSameBoot, reason + ", same boot id"};
  if (a.boot_id.empty() || b.boot_id.empty()) return {NodeRelation::kSameNodeOtherBoot, reason + ", boot id unknown"};
  return {NodeRelation::kSameNodeOtherBoot, reason + ", boot id differs (rebooted in between)"};
}

std::string Short(const std::string& id) { return id.substr(0, 12); }

std::string Ratio(const std::optional<std::string>& count, const std::optional<int64_t>& of) {
  return count.value_or("absent") + (of ? "/" + std::to_string(*of) : "");
}

RecoveryCheck CheckRecovery(const BundleSnapshot& a, const BundleSnapshot& b) {
  RecoveryCheck r;
  if (!a.plugin_containers.empty()) r.a_container = a.plugin_containers.front();
  if (!b.plugin_containers.empty()) r.b_container = b.plugin_containers.front();
  r.registration_a = a.registration;
  r.registration_b = b.registration;
  r.allocatable_a = a.allocatable;
  r.allocatable_b = b.allocatable;
  r.gpus_a = a.gpus;
  r.gpus_b = b.gpus;
  r.b_collected_first = b.collected_at_ns < a.collected_at_ns;
  if (r.a_container) {
    for (const auto& c : b.plugin_containers) {
      if (c.id == r.a_container->id) r.a_container_in_b = c.state;
    }
  }
  bool allocatable_full = r.allocatable_b && r.gpus_b && *r.gpus_b > 0 && *r.allocatable_b == std::to_string(*r.gpus_b);
  std::string resources = "registration " + r.registration_a + " -> " + r.registration_b + ", allocatable " +
                          Ratio(r.allocatable_a, r.gpus_a) + " -> " + Ratio(r.allocatable_b, r.gpus_b);
  if (!r.a_container || !r.b_container) {
    r.summary = std::string("no device-plugin container in ") + (r.a_container ? "B" : "A") + "; " + resources;
    return r;
  }
  r.recreated = r.a_container->id != r.b_container->id;
  if (!*r.recreated) {
    r.verdict = RecoveryVerdict::kNotRecreated;
    r.summary = "SAME plugin container " + Short(r.b_container->id) +
                " in both: it was NOT recreated (deleting a static pod's mirror pod only recreates the API object); " +
                resources;
  } else if (r.registration_b == "ok" && allocatable_full) {
    r.verdict = RecoveryVerdict::kRecovered;
    r.summary = "new plugin container " + Short(r.b_container->id) + " replaced " + Short(r.a_container->id) +
                "; registered " + Ratio(r.allocatable_b, r.gpus_b) + ", allocatable " +
                r.allocatable_a.value_or("absent") + " -> " + r.allocatable_b.value_or("absent");
  } else {
    r.verdict = RecoveryVerdict::kRecreatedNotRecovered;
    r.summary = "new plugin container " + Short(r.b_container->id) + " replaced " + Short(r.a_container->id) +
                ", but the GPUs did not come back: " + resources;
  }
  return r;
}

std::vector<SectionDiff> CompareFacts(const std::vector<DiffFact>& a, const std::vector<DiffFact>& b) {
  std::vector<SectionDiff> out;
  for (const auto& section : DiffSections()) {
    SectionDiff s{section.id, section.title, {}, 0, 0};
    std::map<std::string, size_t> index;  // name -> position in s.facts
    auto add = [&](const DiffFact& f, bool from_a) {
      if (f.section != section.id) return;
      auto [it, inserted] = index.emplace(f.name, s.facts.size());
      if (inserted) s.facts.push_back({f.name, f.kind, std::nullopt, std::nullopt});
      FactDiff& d = s.facts[it->second];
      (from_a ? d.a : d.b) = f.value;
    };
    for (const auto& f : a) add(f, true);
    for (const auto& f : b) add(f, false);
    for (const auto& d : s.facts) (d.same() ? s.same : s.different)++;
    if (!s.facts.empty()) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

BundleDiff CompareSnapshots(BundleSnapshot a, BundleSnapshot b) {
  BundleDiff diff;
  std::tie(diff.relation, diff.relation_reason) = Relate(a, b);
  if (diff.relation == NodeRelation::kSameBoot || diff.relation == NodeRelation::kSameNodeOtherBoot) {
    diff.recovery = CheckRecovery(a, b);
  }
  diff.sections = CompareFacts(a.facts, b.facts);
  for (const auto& s : diff.sections) {
    diff.different += s.different;
    diff.same += s.same;
  }
  a.facts.clear();
  b.facts.clear();
  diff.a = std::move(a);
  diff.b = std::move(b);
  return diff;
}

namespace {

Result<BundleSnapshot> AnalyzeAndRead(const std::string& path) {
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
  GPUF_ASSIGN_OR_RETURN(Analysis analysis, AnalyzeBundle(path, db));
  GPUF_ASSIGN_OR_RETURN(BundleSnapshot snapshot, ReadSnapshot(db, analysis.loaded.bundle_id, path));
  const Manifest& m = analysis.loaded.manifest;
  if (!m.complete) snapshot.gaps.push_back("the collection is incomplete (" + m.incomplete_reason + ")");
  for (const auto& issue : analysis.loaded.integrity_issues) snapshot.gaps.push_back(issue.member + ": " + issue.problem);
  return snapshot;
}

}  // namespace

Result<BundleDiff> DiffBundles(const std::string& path_a, const std::string& path_b) {
  auto a = AnalyzeAndRead(path_a);
  if (!a.ok()) return a.status().WithContext("A");
  auto b = AnalyzeAndRead(path_b);
  if (!b.ok()) return b.status().WithContext("B");
  return CompareSnapshots(std::move(*a), std::move(*b));
}

}  // namespace gpuf
