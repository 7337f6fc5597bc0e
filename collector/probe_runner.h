// Runs one planned probe and describes the result as a manifest artifact.
//
// A ProbeTask is a probe row (or a derived probe) with every placeholder
// resolved. Running it never fails as a whole: a missing tool, a missing
// file, a timeout or a refused path are all recorded in the artifact, which
// is evidence in its own right.
#ifndef GPUF_COLLECTOR_PROBE_RUNNER_H_
#define GPUF_COLLECTOR_PROBE_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/collect_progress.h"
#include "collector/host_exec.h"
#include "collector/host_root.h"
#include "collector/probe_table.h"
#include "common/vocabulary.h"
#include "common/manifest.h"

namespace gpuf {

struct ProbeTask {
  std::string name;
  std::string instance;
  ProbeKind kind = ProbeKind::kCommand;
  int phase = kPhasePassive;
  std::vector<std::string> argv;   // command: argv[0] is the tool name
  std::vector<std::string> paths;  // file: one host path; listing: globs
  KeepMode keep = KeepMode::kHead;
  int64_t cap_bytes = 16 * kMiB;
  int64_t timeout_ns = 0;           // command; file: when driver_read
  bool driver_read = false;         // file: see ProbeRow::driver_read
  int64_t stderr_cap_bytes = 1 * kMiB;
  std::vector<std::string> extra_env;  // "NAME=value" for the command
  // journalctl -o json prints an entry's fields in hash order, which
  // changes from run to run; reproducible bundles sort them.
  bool json_lines = false;
  // A journal read: one journalctl run whose entries are split into these
  // slices (journal_splitter.h), each its own artifact; `name` is the first.
  std::vector<std::string> journal_slices;
  std::string context = "host";
  std::string container_id;
  std::optional<SkipReason> skip_reason;  // planned as skipped (e.g. no kubeconfig)
  std::string skip_detail;
};

struct StagedOutput {
  std::string stream;
  std::string staging_path;
};

struct ProbeResult {
  ManifestArtifact artifact;
  std::vector<StagedOutput> staged;
  bool not_stored = false;        // an output was lost while staging (a full disk, a failed redaction)
  std::vector<ProbeResult> more;  // a journal read's other slices, in task order
};

struct ProbeEnvironment {
  const HostRoot* host = nullptr;
  const HostExec* exec = nullptr;          // how commands are found and started
  std::string staging_dir;
  int64_t deadline_monotonic_ns = 0;       // the collection's overall deadline
  const std::atomic<bool>* interrupt = nullptr;
  bool reproducible = false;               // --fixed-time: same inputs, same bytes
  CollectProgress* progress = nullptr;     // told as groups and probes start and end; may be null
};

// `sequence` makes the staging file names unique.
ProbeResult RunProbe(const ProbeTask& task, int sequence, const ProbeEnvironment& env);

// Expands a host glob ("/dev/nvidia*", "/proc/driver/nvidia/gpus/*/information")
// inside the host root. Only '*' and '?' within one component are special.
std::vector<std::string> ExpandHostGlob(const HostRoot& host, const std::string& pattern);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_PROBE_RUNNER_H_
