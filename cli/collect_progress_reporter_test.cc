#include "cli/collect_progress_reporter.h"

#include <doctest/doctest.h>

#include <string>

namespace gpuf {

namespace {

using Clock = std::chrono::steady_clock;

std::string Contents(FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

}  // namespace

TEST_SUITE("collect_progress_reporter") {

TEST_CASE("CollectProgressReporter: no sink and nothing printed when not on a terminal") {
  FILE* f = std::tmpfile();
  {
    CollectProgressReporter progress(false, f);
    CHECK(progress.Sink() == nullptr);
  }
  CHECK(Contents(f).empty());
  std::fclose(f);
}

TEST_CASE("CollectProgressReporter: the live line, a lasting line per finished group, erased at the end") {
  FILE* f = std::tmpfile();
  {
    CollectProgressReporter progress(true, f, std::chrono::hours(1));  // no tick during the test
    CollectProgress* sink = progress.Sink();
    REQUIRE(sink == &progress);
    sink->GroupStarted("node files", 2);
    sink->ProbeStarted("node files", "host.uname");
    sink->ProbeStarted("node files", "journal.kubelet[boot:0]");
    sink->ProbeFinished("node files", "host.uname", 4'000'000);
    sink->ProbeFinished("node files", "journal.kubelet[boot:0]", 9'700'000'000);
    sink->GroupFinished("node files");
  }
  std::string out = Contents(f);
  CHECK(out.rfind("\r\x1b[Kcollecting 0 s: node files 0/2", 0) == 0);
  size_t finished = out.find("\r\x1b[Kgpuforensics collect: node files: 2 probes in ");
  REQUIRE(finished != std::string::npos);
  CHECK(out.find(" s (slow: journal.kubelet[boot:0] 9.7 s)\n", finished) != std::string::npos);
  // Nothing runs after the last group: no live line drawn again, nothing left to erase.
  CHECK(out.substr(out.size() - 1) == "\n");
  std::fclose(f);
}

TEST_CASE("CollectProgressReporter::LiveText: every running group, then the probes that take long, longest first") {
  const auto now = Clock::now();
  CollectProgressReporter::Group node;
  node.total = 48;
  node.done = 41;
  node.running = {{"journal.kubelet[boot:0]", now - std::chrono::seconds(7)},
                  {"host.uname", now - std::chrono::milliseconds(300)},
                  {"journal.containerd[boot:0]", now - std::chrono::seconds(3)}};
  CollectProgressReporter::Group smi;
  smi.total = 2;
  std::vector<std::pair<std::string, CollectProgressReporter::Group>> groups = {{"node files", node},
                                                                               {"nvidia-smi on the host", smi}};
  CHECK(CollectProgressReporter::LiveText(groups, now, 9) ==
        "collecting 9 s: node files 41/48, nvidia-smi on the host 0/2; waiting on journal.kubelet[boot:0] (7 s), "
        "journal.containerd[boot:0] (3 s)");
  CHECK(CollectProgressReporter::LiveText({}, now, 9) == "");
}

TEST_CASE("CollectProgressReporter::FinishedText: count, time, and up to three slow probes") {
  CollectProgressReporter::Group g;
  g.done = 1;
  CHECK(CollectProgressReporter::FinishedText("nvidia-smi on the host", g, 250'000'000) ==
        "gpuforensics collect: nvidia-smi on the host: 1 probe in 0.2 s");
  g.done = 5;
  g.slow = {{"a", 2'000'000'000}, {"b", 5'000'000'000}, {"c", 3'000'000'000}, {"d", 4'000'000'000}};
  CHECK(CollectProgressReporter::FinishedText("g", g, 6'000'000'000) ==
        "gpuforensics collect: g: 5 probes in 6.0 s (slow: b 5.0 s, d 4.0 s, c 3.0 s)");
}

}  // TEST_SUITE

}  // namespace gpuf
