#include "common/artifacts.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "common/journal_slices.h"

namespace gpuf {

TEST_SUITE("artifacts") {

TEST_CASE("ArtifactTable: names are unique, dotted, and say how they are stored") {
  std::set<std::string_view> names;
  for (const auto& row : ArtifactTable()) {
    CHECK_MESSAGE(names.insert(row.name).second, row.name << " is listed twice");
    CHECK_MESSAGE(row.name.find('.') != std::string_view::npos, row.name << " has no '.'");
    CHECK_MESSAGE(!row.description.empty(), row.name << " has no description");
  }
  CHECK(FindArtifact("host.nvidia_smi_list")->stream() == "stdout");
  CHECK(FindArtifact("driver.version")->stream() == "content");
  CHECK(ArtifactKindName(FindArtifact("dev.nvidia_nodes")->kind) == "listing");
  CHECK(ArtifactKindName(FindArtifact("pci.nvidia_functions")->kind) == "table");
  CHECK(FindArtifact("plugin.nope") == nullptr);
}

TEST_CASE("ArtifactTable: every artifact says how to capture it by hand") {
  for (const auto& row : ArtifactTable()) {
    CHECK_MESSAGE(!row.capture.empty(), row.name << " has no capture command");
  }
  CHECK(CaptureCommand("pci.nvidia_functions") == "lspci -nn -d 10de:");
  CHECK(CaptureCommand("journal.*") == "journalctl -b --no-pager");
  CHECK(CaptureCommand("plugin.nope") == "gpuforensics collect");
}

TEST_CASE("ArtifactTable: what the driver cannot change is a field, not a name prefix") {
  CHECK_FALSE(FindArtifact("versions.runc")->driver_can_change);
  CHECK_FALSE(FindArtifact("config.containerd")->driver_can_change);
  CHECK_FALSE(FindArtifact("k8s.node")->driver_can_change);
  CHECK(FindArtifact("dev.nvidia_nodes")->driver_can_change);
  CHECK(FindArtifact("journal.kernel")->driver_can_change);
}

TEST_CASE("ArtifactTable: every journal slice is a command whose lines are its journal entries") {
  for (const auto& slice : JournalSliceTable()) {
    const ArtifactRow* row = FindArtifact(slice.name);
    REQUIRE_MESSAGE(row, slice.name << " is not in the artifact table");
    CHECK(row->kind == ArtifactKind::kCommand);
    CHECK_FALSE(row->keeps_lines);
  }
}

TEST_CASE("ArtifactGroups: undotted names whose members are known artifacts") {
  std::set<std::string_view> names;
  for (const auto& group : ArtifactGroups()) {
    CHECK(names.insert(group.name).second);
    CHECK(group.name.find('.') == std::string_view::npos);
    CHECK(FindArtifact(group.name) == nullptr);
    CHECK_FALSE(group.members.empty());
    for (auto member : group.members) CHECK_MESSAGE(FindArtifact(member), group.name << ": " << member);
  }
  REQUIRE(FindArtifactGroup("plugin_logs"));
  CHECK(std::string(FindArtifactGroup("plugin_logs")->members[2]) == "journal.nvidia_device_plugin");
  CHECK(InArtifactGroup(kPluginLogsGroup, "plugin.crictl_logs"));
  CHECK_FALSE(InArtifactGroup(kPluginLogsGroup, "journal.kubelet"));
  CHECK_FALSE(InArtifactGroup("plugin_log", "plugin.log"));
  CHECK(FindArtifactGroup("plugin_log") == nullptr);
}

TEST_CASE("KnownArtifactPattern: a name of the table, or a prefix some name has") {
  CHECK(KnownArtifactPattern("plugin.log"));
  CHECK(KnownArtifactPattern("journal.*"));
  CHECK(KnownArtifactPattern("versions.*"));
  CHECK_FALSE(KnownArtifactPattern("plugin.logs"));
  CHECK_FALSE(KnownArtifactPattern("jornal.*"));
  CHECK_FALSE(KnownArtifactPattern(""));
}

}  // TEST_SUITE

}  // namespace gpuf
