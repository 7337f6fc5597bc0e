// Shows an analysis's progress on one line of stderr, only when stderr is a
// terminal: "analyzing: loading 45% of 27.0 MiB, 340 members". Redrawn at
// most ten times a second and erased when done, so the report on stdout and
// a log of stderr stay clean.
#ifndef GPUF_CLI_PROGRESS_REPORTER_H_
#define GPUF_CLI_PROGRESS_REPORTER_H_

#include <chrono>
#include <cstdio>

#include "analyzer/load_progress.h"

namespace gpuf {

class ProgressReporter {
 public:
  // Draws on `out` only when `enabled` (the caller checks isatty).
  ProgressReporter(bool enabled, FILE* out = stderr);
  ~ProgressReporter();  // erases the line
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // The callback for AnalyzeBundle; empty when disabled, so nothing is called.
  LoadProgressFn Callback();

  void Update(const LoadProgress& progress);

 private:
  bool enabled_;
  FILE* out_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace gpuf

#endif  // GPUF_CLI_PROGRESS_REPORTER_H_
