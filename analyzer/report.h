// The Report: everything a renderer shows, computed from the database.
//
// Renderers see only this struct. For now it carries the bundle's identity,
// its integrity, the facts along the GPU chain (PCI -> driver -> device nodes
// -> host NVML -> plugin container -> plugin log -> kubelet sockets -> node
// resources) and what the bundle could not show.
#ifndef GPUF_ANALYZER_REPORT_H_
#define GPUF_ANALYZER_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/loader.h"

namespace gpuf {

struct ChainFact {
  std::string step;      // "PCI", "host nvidia-smi", ...
  std::string value;     // what was seen
  std::string evidence;  // artifact (and line) it came from; "" when absent
};

struct Report {
  std::string bundle_path;
  std::string node;
  std::string collected_at_utc;
  std::string tool_version;
  bool complete = true;
  std::string incomplete_reason;
  int64_t artifacts_total = 0;
  int64_t artifacts_ok = 0;
  int64_t artifacts_failed = 0;  // nonzero exit, signal, timeout, error
  int64_t artifacts_skipped = 0;
  std::vector<std::string> integrity_issues;
  std::vector<ChainFact> chain;
  std::vector<std::string> journal_counts;  // "journal.kubelet boot:0: 812 entries"
  std::vector<std::string> coverage;        // skipped and failed artifacts with reasons
  int64_t load_warnings = 0;
};

Result<Report> BuildReport(Database& db, const LoadResult& loaded, const std::string& bundle_path);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_H_
