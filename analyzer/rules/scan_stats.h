// What the single pass over a bundle's log sources did (log_scan.h), for the
// run summary and for benchmarks.
#ifndef GPUF_ANALYZER_RULES_SCAN_STATS_H_
#define GPUF_ANALYZER_RULES_SCAN_STATS_H_

#include <cstdint>

namespace gpuf {

struct LogScanStats {
  int64_t lines = 0;        // records read
  int64_t set_checks = 0;   // records that passed the prefilter
  int64_t matches = 0;      // (record, pattern) matches kept
  int64_t dropped = 0;      // matches past the cap of one selection
  int patterns = 0;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SCAN_STATS_H_
