// collect's progress on stderr, only when stderr is a terminal (sos prints a
// line per plugin; this prints one per probe group). A live line says what
// runs and names the probes that take long:
//   collecting 9 s: node files, logs and runtime state 41/48; waiting on journal.kubelet[0] (7 s)
// and each group that ends leaves a line above it:
//   gpuforensics collect: node files, logs and runtime state: 48 probes in 9.8 s (slow: journal.kubelet[0] 9.6 s)
// In a pipe or a log nothing is printed: the triage and the path are all.
#ifndef GPUF_CLI_COLLECT_PROGRESS_REPORTER_H_
#define GPUF_CLI_COLLECT_PROGRESS_REPORTER_H_

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cli/live_line.h"
#include "collector/collect_progress.h"

namespace gpuf {

class CollectProgressReporter : public CollectProgress {
 public:
  // Draws on `out` only when `enabled` (the caller checks isatty).
  explicit CollectProgressReporter(bool enabled, FILE* out = stderr,
                                   std::chrono::milliseconds redraw_every = std::chrono::milliseconds(250));

  // nullptr when disabled, so that the collector skips every call.
  CollectProgress* Sink() { return line_.enabled() ? this : nullptr; }

  void GroupStarted(std::string_view group, size_t probes) override;
  void ProbeStarted(std::string_view group, const std::string& probe) override;
  void ProbeFinished(std::string_view group, const std::string& probe, int64_t duration_ns) override;
  void GroupFinished(std::string_view group) override;

  // A probe taking this long is named, while it runs and when its group ends.
  static constexpr int64_t kSlowNs = 2'000'000'000;

  struct Group {
    size_t total = 0, done = 0;
    std::chrono::steady_clock::time_point started;
    std::map<std::string, std::chrono::steady_clock::time_point> running;
    std::vector<std::pair<std::string, int64_t>> slow;  // finished slow probes, ns
  };
  // The live line, and the line a finished group leaves (both tested as text).
  static std::string LiveText(const std::vector<std::pair<std::string, Group>>& groups,
                              std::chrono::steady_clock::time_point now, int64_t elapsed_s);
  static std::string FinishedText(const std::string& name, const Group& group, int64_t duration_ns);

 private:
  std::string Text(int64_t elapsed_s);

  std::mutex mutex_;  // guards groups_
  std::vector<std::pair<std::string, Group>> groups_;  // running, in start order
  LiveLine line_;  // last: its ticker stops before the rest goes
};

}  // namespace gpuf

#endif  // GPUF_CLI_COLLECT_PROGRESS_REPORTER_H_
