// `gpuforensics watch`: capture the moment of failure automatically.
//
// Each run checks the chain cheaply (watch_check.h). A healthy node costs a
// few file reads. A broken one gets one full collect per incident (the same
// breakage in the same boot is captured once), no more often than the
// minimum interval, into an output directory whose bundles are pruned to
// the newest N and at most M bytes. What was captured last, and the index of
// the bundles this watch wrote (the only ones retention ever removes, never
// the newest), are in <out-dir>/.gpuforensics-watch.json; a lock on
// <out-dir>/.gpuforensics-watch.lock lets one watch at a time decide and
// capture, so runs started together capture an incident once.
#ifndef GPUF_COLLECTOR_WATCH_H_
#define GPUF_COLLECTOR_WATCH_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "collector/collect.h"
#include "collector/watch_check.h"

namespace gpuf {

struct WatchOptions {
  CollectOptions collect;        // root, plugin pattern, timeouts... (output is chosen here)
  std::string out_dir;
  int64_t min_interval_s = 900;  // at most one bundle per this many seconds
  int keep = 10;                 // bundles kept in out_dir
  int64_t max_bytes = 2LL << 30; // and at most this many bytes of them
  bool check_allocatable = false;
};

struct WatchOutcome {
  ChainCheck check;
  std::string action;             // "healthy" | "collected" | "already_captured" | "rate_limited"
  std::string bundle;             // written now, or the one that captured this incident
  std::vector<std::string> removed;  // bundles pruned by retention
  bool complete = true;              // "collected": the bundle is complete
};

// Fails only when the output directory is unusable or a collect cannot
// write its bundle.
Result<WatchOutcome> Watch(const WatchOptions& options, const std::atomic<bool>* interrupt);

// Of the bundles named in `captures` (file names in `dir`, oldest first),
// keeps the newest `keep` and drops the oldest until they fit `max_bytes`,
// the newest always kept; nothing else in `dir` is touched. `captures`
// becomes what is left. Returns the paths removed.
std::vector<std::string> ApplyRetention(const std::string& dir, std::vector<std::string>& captures, int keep,
                                        int64_t max_bytes);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_WATCH_H_
