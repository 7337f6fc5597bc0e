// Shows an analysis's progress on one line of stderr, only when stderr is a
// terminal: "analyzing 12 s: loading 57 of 101, plugin.log (145.1 MiB),
// 80% of 19.0 MiB read". The line is a LiveLine: its ticker redraws it four
// times a second with the elapsed time, so a long parse of one big member
// or a long rule run still shows that work goes on, without any hook in the
// analyzer's inner loops; it is erased when the reporter goes away, so the
// report on stdout and a log of stderr stay clean.
#ifndef GPUF_CLI_PROGRESS_REPORTER_H_
#define GPUF_CLI_PROGRESS_REPORTER_H_

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "analyzer/load/load_progress.h"
#include "cli/live_line.h"

namespace gpuf {

class ProgressReporter {
 public:
  // Draws on `out` only when `enabled` (the caller checks isatty).
  // `redraw_every`: the ticker's period (tests make it long).
  explicit ProgressReporter(bool enabled, FILE* out = stderr,
                            std::chrono::milliseconds redraw_every = std::chrono::milliseconds(250));
  ~ProgressReporter() = default;  // the line stops its ticker and erases itself
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // The callback for AnalyzeBundle; empty when disabled, so nothing is called.
  LoadProgressFn Callback();

  // Records where the work is; draws at once on a new phase, else at most
  // ten times a second (the ticker draws the rest).
  void Update(const LoadProgress& progress);

  // The line for `progress` after `elapsed_s` seconds.
  static std::string Line(const LoadProgress& progress, int64_t elapsed_s);

 private:
  std::string Text(int64_t elapsed_s);  // the live line's text

  std::mutex mutex_;  // guards what follows, up to line_
  bool have_progress_ = false;
  LoadProgress latest_;
  std::string phase_;  // latest_.phase, copied: the caller's pointer may not outlive the call
  std::chrono::steady_clock::time_point last_draw_{};
  LiveLine line_;  // last: its ticker stops before the rest goes
};

}  // namespace gpuf

#endif  // GPUF_CLI_PROGRESS_REPORTER_H_
