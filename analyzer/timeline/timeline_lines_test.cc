#include "analyzer/timeline/timeline_lines.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <re2/re2.h>
#include <set>
#include <string>

#include "formats/journal_event.h"
#include "formats/journal_json.h"

namespace gpuf {

TEST_SUITE("timeline") {

TEST_CASE("MayMarkMilestone: every event the milestone column names is kept by the milestones load") {
  // The CASE of JournalTimelineLines names events as j.event = '...' or j.event IN ('...', ...).
  const std::string sql = JournalTimelineLines();
  re2::StringPiece rest(sql);
  std::string one, list;
  std::set<std::string> named;
  while (RE2::FindAndConsume(&rest, R"(j\.event (?:= '([a-z_]+)'|IN \(([^)]*)\)))", &one, &list)) {
    if (!one.empty()) named.insert(one);
    re2::StringPiece items(list);
    std::string item;
    while (RE2::FindAndConsume(&items, "'([a-z_]+)'", &item)) named.insert(item);
  }
  CHECK(named.size() == 6);
  for (const std::string& name : named) {
    CAPTURE(name);
    CHECK(std::find(std::begin(kMilestoneJournalEvents), std::end(kMilestoneJournalEvents), name) !=
          std::end(kMilestoneJournalEvents));
  }
}

TEST_CASE("MayMarkMilestone: milestone events and the driver's kernel lines, as the SQL condition says") {
  JournalEntry kernel;
  kernel.transport = "kernel";
  kernel.message = "nvidia 0000:3b:00.0: nvrm: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
  CHECK(MayMarkMilestone(kernel, {}));
  kernel.message = "EXT4-fs (nvme0n1p1): mounted filesystem";
  CHECK_FALSE(MayMarkMilestone(kernel, {}));
  JournalEntry unit;
  unit.transport = "journal";
  unit.message = "NVRM: a line of a daemon, not of the kernel";
  CHECK_FALSE(MayMarkMilestone(unit, {}));
  CHECK(MayMarkMilestone(unit, {"unit_started", "kubelet.service"}));
  CHECK(MayMarkMilestone(unit, {"daemon_reload", ""}));
  CHECK_FALSE(MayMarkMilestone(unit, {"unit_deactivated", "run-containerd.mount"}));
  CHECK(MayMarkMilestoneSql().find("'%NVRM: %'") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuf
