#include "formats/journal_event.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "common/event_kinds.h"
#include "formats/kubelet_log.h"

namespace gpuf {

namespace {

JournalEntry Entry(std::string identifier, std::string unit, std::optional<int64_t> pid, std::string message) {
  JournalEntry e;
  e.identifier = std::move(identifier);
  e.unit = std::move(unit);
  e.pid = pid;
  e.message = std::move(message);
  return e;
}

}  // namespace

TEST_SUITE("journal_event") {

TEST_CASE("ClassifyJournalEntry: PID 1 names the unit, from the text or the UNIT field") {
  JournalEvent started = ClassifyJournalEntry(Entry("systemd", "init.scope", 1, "Started kubelet.service - kubelet: The Kubernetes Node Agent."));
  CHECK(started.kind == "unit_started");
  CHECK(started.subject == "kubelet.service");
  JournalEvent old = ClassifyJournalEntry(Entry("systemd", "nvidia-persistenced.service", 1, "Started NVIDIA Persistence Daemon."));
  CHECK(old.kind == "unit_started");
  CHECK(old.subject == "nvidia-persistenced.service");
}

TEST_CASE("ClassifyJournalEntry: journald says what it dropped, by unit or from the kernel") {
  auto now = ClassifyJournalEntry(Entry("systemd-journald", "systemd-journald.service", 412,
                                        "Suppressed 1520 messages from kubelet.service"));
  CHECK(now.kind == "messages_suppressed");
  CHECK(now.subject == "kubelet.service");
  // Before systemd 246 the unit's cgroup is named.
  auto old = ClassifyJournalEntry(Entry("systemd-journald", "systemd-journald.service", 412,
                                        "Suppressed 88 messages from /system.slice/containerd.service"));
  CHECK(old.subject == "containerd.service");
  auto kernel = ClassifyJournalEntry(Entry("systemd-journald", "systemd-journald.service", 412,
                                           "Missed 47 kernel messages"));
  CHECK(kernel.kind == "kernel_messages_missed");
  CHECK(kernel.subject == "kernel");
  CHECK(ClassifyJournalEntry(Entry("systemd-journald", "systemd-journald.service", 412,
                                   "Journal started")).kind.empty());
}

TEST_CASE("ClassifyJournalEntry: k3s runs the kubelet - its unit start and its lines are the kubelet's") {
  JournalEvent started = ClassifyJournalEntry(Entry("systemd", "k3s-agent.service", 1, "Started Lightweight Kubernetes."));
  CHECK(started.kind == "unit_started");
  CHECK(started.subject == "kubelet.service");
  JournalEvent registration = ClassifyJournalEntry(Entry(
      "k3s", "k3s-agent.service", 2044,
      R"(I0612 10:00:09.000000    2044 server.go:144] "Got registration request from device plugin with resource" resourceName="nvidia.com/gpu")"));
  CHECK(registration.kind == "registration_request");
  CHECK(registration.subject == "nvidia.com/gpu");
}

TEST_CASE("ClassifyJournalEntry: a JSON-logging kubelet, and lines of other programs") {
  JournalEvent ended = ClassifyJournalEntry(Entry(
      "kubelet", "kubelet.service", 2044,
      R"({"ts":1580306777.1,"msg":"ListAndWatch ended unexpectedly for device plugin","v":0,"err":"EOF","resource":"nvidia.com/gpu"})"));
  CHECK(ended.kind == "list_and_watch_ended");
  CHECK(ended.subject == "nvidia.com/gpu");
  CHECK(ClassifyJournalEntry(Entry("containerd", "containerd.service", 900,
                                   R"(Got registration request from device plugin with resource name "nvidia.com/gpu")"))
            .kind == "");
}

TEST_CASE("Event kinds read from the journal name events the journal classifier gives") {
  std::set<std::string> given;
  for (int k = 0; k <= static_cast<int>(SystemdEventKind::kDaemonReexecRequested); ++k) {
    given.insert(SystemdEventKindName(static_cast<SystemdEventKind>(k)));
  }
  for (int k = 0; k <= static_cast<int>(KubeletEventKind::kKubeletStarting); ++k) {
    given.insert(KubeletEventKindName(static_cast<KubeletEventKind>(k)));
  }
  for (const auto& kind : EventKinds()) {
    for (std::string_view event : ListWords(kind.journal_events)) {
      CAPTURE(kind.name);
      CHECK(given.count(std::string(event)));
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuf
