#include "common/journal_match.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace gpuf {

namespace {

using Entry = std::map<std::string, std::string, std::less<>>;

bool Selects(const JournalMatch& match, const Entry& entry) {
  return JournalEntryMatches(match, [&](std::string_view field) -> std::string_view {
    auto it = entry.find(field);
    return it == entry.end() ? std::string_view() : std::string_view(it->second);
  });
}

}  // namespace

TEST_SUITE("journal_match") {

TEST_CASE("a unit's slice selects what journalctl -u selects, and nothing of another unit") {
  const JournalMatch kubelet = JournalSliceMatch(*FindJournalSlice("journal.kubelet"));
  CHECK(Selects(kubelet, {{"_SYSTEMD_UNIT", "kubelet.service"}, {"_PID", "2210"}}));
  CHECK(Selects(kubelet, {{"_SYSTEMD_UNIT", "k3s-agent.service"}}));
  // systemd's own lines about the unit: "Started kubelet.service".
  CHECK(Selects(kubelet, {{"_PID", "1"}, {"UNIT", "kubelet.service"}, {"_SYSTEMD_UNIT", "init.scope"}}));
  CHECK(!Selects(kubelet, {{"_PID", "4242"}, {"UNIT", "kubelet.service"}}));
  CHECK(Selects(kubelet, {{"_UID", "0"}, {"OBJECT_SYSTEMD_UNIT", "kubelet.service"}}));
  CHECK(!Selects(kubelet, {{"_SYSTEMD_UNIT", "containerd.service"}}));
  CHECK(!Selects(kubelet, {}));
}

TEST_CASE("field matches: any term selects, every field of a term must hold") {
  const JournalMatch persistenced = JournalSliceMatch(*FindJournalSlice("journal.nvidia_persistenced"));
  CHECK(Selects(persistenced, {{"SYSLOG_IDENTIFIER", "nvidia-persistenced"}, {"_SYSTEMD_UNIT", "cri-containerd-1.scope"}}));
  CHECK(Selects(persistenced, {{"UNIT", "nvidia-persistenced.service"}, {"_PID", "77"}}));
  CHECK(!Selects(persistenced, {{"SYSLOG_IDENTIFIER", "nvidia-smi"}}));
  const JournalMatch kernel = JournalSliceMatch(*FindJournalSlice("journal.kernel"));
  CHECK(Selects(kernel, {{"_TRANSPORT", "kernel"}}));
  CHECK(!Selects(kernel, {{"_TRANSPORT", "stdout"}}));
}

TEST_CASE("the union of the slices' matches is one journalctl argument list, each term once") {
  std::vector<JournalMatch> matches = {JournalSliceMatch(*FindJournalSlice("journal.kernel")),
                                       JournalSliceMatch(*FindJournalSlice("journal.systemd")),
                                       JournalSliceMatch(*FindJournalSlice("journal.kernel"))};
  const JournalMatch all = JournalMatchUnion(matches);
  CHECK(JournalMatchArgs(all) == std::vector<std::string>{"_TRANSPORT=kernel", "+", "_PID=1"});
  CHECK(JournalMatchFields(all) == std::vector<std::string>{"_TRANSPORT", "_PID"});
  const JournalMatch fabric = JournalSliceMatch(*FindJournalSlice("journal.nvidia_fabricmanager"));
  std::vector<std::string> args = JournalMatchArgs(fabric);
  REQUIRE(args.size() == 11);  // four terms of -u: 1 + 3 + 2 + 2 fields, three "+"
  CHECK(args[0] == "_SYSTEMD_UNIT=nvidia-fabricmanager.service");
  CHECK(args[1] == "+");
}

}  // TEST_SUITE

}  // namespace gpuf
