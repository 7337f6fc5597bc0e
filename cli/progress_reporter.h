// Shows an analysis's progress on one line of stderr, only when stderr is a
// terminal: "analyzing 12 s: loading 57 of 101, plugin.log (145.1 MiB),
// 80% of 19.0 MiB read". A ticker thread redraws the line four times a
// second with the elapsed time, so a long parse of one big member or a long
// rule run still shows that work goes on, without any hook in the
// analyzer's inner loops. The line is erased when the reporter goes away,
// so the report on stdout and a log of stderr stay clean.
#ifndef GPUF_CLI_PROGRESS_REPORTER_H_
#define GPUF_CLI_PROGRESS_REPORTER_H_

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "analyzer/load_progress.h"

namespace gpuf {

class ProgressReporter {
 public:
  // Draws on `out` only when `enabled` (the caller checks isatty).
  // `redraw_every`: the ticker's period (tests make it long).
  explicit ProgressReporter(bool enabled, FILE* out = stderr,
                            std::chrono::milliseconds redraw_every = std::chrono::milliseconds(250));
  ~ProgressReporter();  // stops the ticker, erases the line
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
  void Draw();  // with mutex_ held
  void Tick();

  const bool enabled_;
  FILE* const out_;
  const std::chrono::milliseconds redraw_every_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  bool have_progress_ = false;
  LoadProgress latest_;
  std::string phase_;  // latest_.phase, copied: the caller's pointer may not outlive the call
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
  std::thread ticker_;
};

}  // namespace gpuf

#endif  // GPUF_CLI_PROGRESS_REPORTER_H_
