#include "analyzer/diff/bundle_diff.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

BundleSnapshot Node(const std::string& machine_id, const std::string& boot_id) {
  BundleSnapshot s;
  s.path = machine_id + ".tar.zst";
  s.node_name = "node-" + machine_id;
  s.machine_id = machine_id;
  s.boot_id = boot_id;
  s.collected_at_ns = 1000;
  return s;
}

SeenPluginContainer Container(const std::string& id, int64_t attempt, int64_t created_ns) {
  return {id, "CONTAINER_RUNNING", attempt, created_ns, "pod-uid"};
}

const SectionDiff* Section(const BundleDiff& d, const std::string& id) {
  for (const auto& s : d.sections) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

}  // namespace

TEST_SUITE("bundle_diff") {

TEST_CASE("CompareSnapshots: facts pair by section and name, a fact on one side only is a difference") {
  BundleSnapshot a = Node("m1", "b1");
  BundleSnapshot b = Node("m2", "b2");
  a.facts = {{"versions", "runc", FactKind::kText, "1.1.13"},
             {"versions", "containerd", FactKind::kText, "v1.6.34"},
             {"intervals", "plugin_start_after_persistenced", FactKind::kSeconds, "0.748"},
             {"findings", "dp-started-before-driver-ready", FactKind::kText, "high, confirmed"}};
  b.facts = {{"versions", "containerd", FactKind::kText, "v1.6.34"},
             {"versions", "runc", FactKind::kText, "1.1.14"},
             {"versions", "kubelet", FactKind::kText, "v1.30.0"},
             {"intervals", "plugin_start_after_persistenced", FactKind::kSeconds, "13.480"}};
  BundleDiff d = CompareSnapshots(a, b);

  REQUIRE(d.sections.size() == 3);  // versions, intervals, findings: empty sections are left out
  const SectionDiff* versions = Section(d, "versions");
  REQUIRE(versions != nullptr);
  REQUIRE(versions->facts.size() == 3);
  CHECK(versions->facts[0].name == "runc");  // A's order first
  CHECK(versions->facts[0].a == "1.1.13");
  CHECK(versions->facts[0].b == "1.1.14");
  CHECK_FALSE(versions->facts[0].same());
  CHECK(versions->facts[1].name == "containerd");
  CHECK(versions->facts[1].same());
  CHECK(versions->facts[2].name == "kubelet");  // then B's new ones
  CHECK_FALSE(versions->facts[2].a.has_value());
  CHECK(versions->different == 2);
  CHECK(versions->same == 1);

  const SectionDiff* findings = Section(d, "findings");
  REQUIRE(findings != nullptr);
  CHECK(findings->facts[0].a == "high, confirmed");
  CHECK_FALSE(findings->facts[0].b.has_value());
  CHECK(d.different == 4);
  CHECK(d.same == 1);
  CHECK(d.relation == NodeRelation::kDifferentNodes);
  CHECK(d.relation_reason == "machine-id differs");
  CHECK_FALSE(d.recovery.has_value());
  CHECK(d.a.facts.empty());
}

TEST_CASE("CompareSnapshots: a bundle against itself has no differences") {
  BundleSnapshot a = Node("m1", "b1");
  a.facts = {{"versions", "runc", FactKind::kText, "1.1.13"}, {"gpu_counts", "Node allocatable", FactKind::kCount, "8"}};
  BundleDiff d = CompareSnapshots(a, a);
  CHECK(d.different == 0);
  CHECK(d.same == 2);
  CHECK(d.relation == NodeRelation::kSameBoot);
}

TEST_CASE("CompareSnapshots: how the node is recognised") {
  SUBCASE("machine-id decides over the node name") {
    BundleSnapshot a = Node("m1", "b1"), b = Node("m1", "b2");
    b.node_name = "renamed";
    BundleDiff d = CompareSnapshots(a, b);
    CHECK(d.relation == NodeRelation::kSameNodeOtherBoot);
    CHECK(d.relation_reason == "machine-id equal, boot id differs (rebooted in between)");
    CHECK(d.recovery.has_value());
  }
  SUBCASE("without machine-id, the node name, flagged as weaker") {
    BundleSnapshot a = Node("", "b1"), b = Node("", "b1");
    a.node_name = b.node_name = "gpu-7";
    BundleDiff d = CompareSnapshots(a, b);
    CHECK(d.relation == NodeRelation::kSameBoot);
    CHECK(d.relation_reason == "node name equal, no machine-id to confirm, same boot id");
  }
  SUBCASE("nothing to go by") {
    BundleSnapshot a = Node("", ""), b = Node("", "");
    a.node_name = b.node_name = "";
    BundleDiff d = CompareSnapshots(a, b);
    CHECK(d.relation == NodeRelation::kUnknown);
    CHECK_FALSE(d.recovery.has_value());
  }
}

TEST_CASE("CompareSnapshots: the recovery check of the same node") {
  BundleSnapshot before = Node("m1", "b1"), after = Node("m1", "b1");
  after.collected_at_ns = 2000;
  before.plugin_containers = {Container("f3d0365e077f8969", 1, 100)};
  before.registration = "failed";
  before.allocatable = "0";
  before.gpus = 8;
  after.registration = "ok";
  after.allocatable = "8";
  after.gpus = 8;

  SUBCASE("a new container that registered all GPUs: recovered") {
    after.plugin_containers = {Container("541677869cb8fa84", 2, 200)};
    BundleDiff d = CompareSnapshots(before, after);
    REQUIRE(d.recovery.has_value());
    CHECK(d.recovery->verdict == RecoveryVerdict::kRecovered);
    CHECK(d.recovery->recreated == true);
    CHECK_FALSE(d.recovery->a_container_in_b.has_value());
    CHECK(d.recovery->summary ==
          "new plugin container 541677869cb8 replaced f3d0365e077f; registered 8/8, allocatable 0 -> 8");
    CHECK_FALSE(d.recovery->b_collected_first);
  }
  SUBCASE("the same container id: the API object was recreated, not the container") {
    after.plugin_containers = {Container("f3d0365e077f8969", 1, 100)};
    BundleDiff d = CompareSnapshots(before, after);
    REQUIRE(d.recovery.has_value());
    CHECK(d.recovery->verdict == RecoveryVerdict::kNotRecreated);
    CHECK(d.recovery->recreated == false);
    CHECK(d.recovery->a_container_in_b == "CONTAINER_RUNNING");
    CHECK(d.recovery->summary.rfind("SAME plugin container f3d0365e077f in both: it was NOT recreated", 0) == 0);
  }
  SUBCASE("a new container, but allocatable still short") {
    SeenPluginContainer old = Container("f3d0365e077f8969", 1, 100);
    old.state = "CONTAINER_EXITED";
    after.plugin_containers = {Container("541677869cb8fa84", 2, 200), old};
    after.allocatable = "7";
    BundleDiff d = CompareSnapshots(before, after);
    REQUIRE(d.recovery.has_value());
    CHECK(d.recovery->verdict == RecoveryVerdict::kRecreatedNotRecovered);
    CHECK(d.recovery->a_container_in_b == "CONTAINER_EXITED");
    CHECK(d.recovery->summary ==
          "new plugin container 541677869cb8 replaced f3d0365e077f, but the GPUs did not come back: "
          "registration failed -> ok, allocatable 0/8 -> 7/8");
  }
  SUBCASE("no plugin container after: unknown") {
    BundleDiff d = CompareSnapshots(before, after);
    REQUIRE(d.recovery.has_value());
    CHECK(d.recovery->verdict == RecoveryVerdict::kUnknown);
    CHECK_FALSE(d.recovery->recreated.has_value());
    CHECK(d.recovery->summary == "no device-plugin container in B; registration failed -> ok, allocatable 0/8 -> 8/8");
  }
  SUBCASE("B older than A is said") {
    after.plugin_containers = {Container("541677869cb8fa84", 2, 200)};
    after.collected_at_ns = 500;
    BundleDiff d = CompareSnapshots(before, after);
    CHECK(d.recovery->b_collected_first);
  }
}

TEST_CASE("DiffSections: ids are unique and named") {
  std::vector<std::string> ids;
  for (const auto& s : DiffSections()) {
    CHECK(std::string(s.title).size() > 0);
    for (const auto& seen : ids) CHECK(seen != s.id);
    ids.push_back(s.id);
  }
  CHECK(ids.size() == 9);
}

}  // TEST_SUITE

}  // namespace gpuf
