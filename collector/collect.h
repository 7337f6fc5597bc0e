// `gpuforensics collect`: one read-only capture of a GPU node into a bundle.
//
// Probes run in four phases (see probe_table.h), concurrently within a
// phase, each bounded by its own timeout and all by an overall deadline. An
// interrupt or the deadline still yields a valid bundle, marked incomplete.
#ifndef GPUF_COLLECTOR_COLLECT_H_
#define GPUF_COLLECTOR_COLLECT_H_

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/collect_progress.h"
#include "collector/redact/redaction.h"
#include "collector/supplied_node.h"
#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

struct CollectOptions {
  std::string root = "/";           // where the host's files are
  std::string output;               // bundle path; "" = default name in output_dir
  std::string output_dir = ".";     // where a default-named bundle goes
  bool force = false;               // --force: an existing regular file at the output may be replaced
  std::string node;                 // node name; "" = the host's hostname
  std::string kubeconfig;           // "" = $KUBECONFIG, else the kubelet's kubeconfig
  std::optional<SuppliedNode> node_object;  // --node-object: k8s.node as given, not asked of the host's kubectl
  std::string plugin_pattern;       // RE2, case-insensitive
  std::string runtime_endpoint;     // crictl --runtime-endpoint, "" = crictl's default
  std::string containerd_address;   // ctr --address, "" = ctr's default
  int64_t probe_timeout_ms = 10000;
  int64_t journal_timeout_ms = 30000;
  int64_t deadline_ms = 120000;
  int jobs = 8;
  bool no_driver = false;           // skip every probe that touches the GPU driver
  std::optional<int64_t> fixed_time_ns;  // stamp every time with this (reproducible samples)
  std::string exec_mode = "path";   // how host commands run: path | chroot | nsenter (host_exec.h)
  std::string path_env;             // PATH to find tools on
  std::string tool_version;
  bool redact = false;              // --redact: pseudonymize before anything is stored (collector/redact/)
  RedactOptions redaction;
};

struct CollectOutcome {
  std::string bundle_path;
  Manifest manifest;
  std::string triage;  // short human summary for stderr
  // Probes refused for lack of permission, "probe: detail" (access_report.h).
  std::vector<std::string> refused;
  // Outputs lost while staging (a full disk, a failed redaction), "probe: why";
  // the bundle is then incomplete ("members_not_written").
  std::vector<std::string> not_stored;
};

// Fails only when no bundle can be written (bad options, an output that
// exists or is not a regular file, output not writable); the output is
// checked before any probe runs. Everything that goes wrong on the node is
// recorded instead. `progress`, when set, is told as the probe groups and
// probes run.
Result<CollectOutcome> Collect(const CollectOptions& options, const std::atomic<bool>* interrupt,
                               CollectProgress* progress = nullptr);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_COLLECT_H_
