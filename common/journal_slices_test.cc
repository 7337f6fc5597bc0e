#include "common/journal_slices.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace gpuf {

TEST_SUITE("journal_slices") {

TEST_CASE("JournalSliceTable: names are unique and each selects its entries by unit, PID 1 or transport") {
  std::set<std::string_view> names;
  for (const auto& row : JournalSliceTable()) {
    CHECK(names.insert(row.name).second);
    CHECK(row.name.rfind("journal.", 0) == 0);
    CHECK(!(row.units.empty() && row.matches.empty()));
    // A slice named after a unit selects it first.
    if (!row.units.empty()) CHECK(row.units.rfind(row.unit, 0) == 0);
  }
  CHECK(FindJournalSlice("journal.systemd")->matches == "_PID=1");
  CHECK(FindJournalSlice("journal.kernel")->matches == "_TRANSPORT=kernel");
  CHECK(FindJournalSlice("journal.kernel")->unit == "");
  CHECK(FindJournalSlice("journal.nope") == nullptr);
}

TEST_CASE("JournalSliceForUnit: the slice whose unit or -u selects the unit") {
  CHECK(JournalSliceForUnit("kubelet.service")->name == "journal.kubelet");
  CHECK(JournalSliceForUnit("k3s-agent.service")->name == "journal.kubelet");
  CHECK(JournalSliceForUnit("crio.service")->name == "journal.containerd");
  CHECK(JournalSliceForUnit("nvidia-persistenced.service")->name == "journal.nvidia_persistenced");
  CHECK(JournalSliceForUnit("sshd.service") == nullptr);
}

TEST_CASE("JournalSliceForIdentifier: an identifier and the other name Fabric Manager logs under") {
  CHECK(JournalSliceForIdentifier("kubelet")->name == "journal.kubelet");
  CHECK(JournalSliceForIdentifier("nv-fabricmanager")->name == "journal.nvidia_fabricmanager");
  CHECK(JournalSliceForIdentifier("nvidia-fabricmanager")->name == "journal.nvidia_fabricmanager");
  CHECK(JournalSliceForIdentifier("k3s")->name == "journal.kubelet");
  CHECK(JournalSliceForIdentifier("crio")->name == "journal.containerd");
  CHECK(JournalSliceForIdentifier("nvidia-device-plugin")->name == kPluginJournalSlice);
  CHECK(FindJournalSlice(kPluginJournalSlice)->only_where_installed);
  CHECK(JournalSliceForIdentifier("sshd") == nullptr);
}

}  // TEST_SUITE

}  // namespace gpuf
