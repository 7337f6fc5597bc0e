#include "collector/probe_table.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("probe_table") {

TEST_CASE("StaticProbes: every probe is a row of the artifact table, stored as that row says") {
  for (const auto& probe : StaticProbes()) {
    const ArtifactRow* row = FindArtifact(probe.name);
    REQUIRE_MESSAGE(row, probe.name << " is not in common/artifacts.cc");
    CHECK_MESSAGE(StoredKind(probe.kind) == row->kind, probe.name);
  }
}

TEST_CASE("DriverCanChange: the artifact table's field decides, and an unknown name waits") {
  CHECK_FALSE(DriverCanChange("versions.containerd"));
  CHECK_FALSE(DriverCanChange("config.static_pod"));
  CHECK_FALSE(DriverCanChange("k8s.node_pods"));
  CHECK(DriverCanChange("kubelet.device_plugins"));
  CHECK(DriverCanChange("journal.kernel"));
  CHECK(DriverCanChange("no.such_artifact"));
}

}  // TEST_SUITE

}  // namespace gpuf
