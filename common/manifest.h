// The bundle manifest: what ran, how it ended, and where its bytes are.
//
// The manifest is the first member of every bundle (manifest.json). The
// collector fills it in while probes run; the analyzer reads it to find
// artifacts by logical name and to verify sizes and hashes. The JSON field
// names are specified in schema/bundle.md; this struct mirrors them 1:1.
#ifndef GPUF_COMMON_MANIFEST_H_
#define GPUF_COMMON_MANIFEST_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/vocabulary.h"

namespace gpuf {

// One stored stream of an artifact (stdout, stderr or file content).
struct ManifestOutput {
  std::string stream;        // "stdout" | "stderr" | "content"
  std::string member;        // tar member path
  int64_t size_bytes = 0;    // bytes stored in the member
  std::string sha256;        // of the stored bytes
  bool truncated = false;    // the cap cut this stream
  int64_t dropped_bytes = 0; // bytes produced but not stored
};

struct ManifestArtifact {
  std::string name;          // logical name, e.g. "host.nvidia_smi_list"
  std::string instance;      // distinguishes several of one name ("" when single)
  std::string kind;          // "command" | "file" | "listing" | "table"
  std::vector<std::string> argv;  // command: as executed
  // A journal slice read with others in one run: the match (journalctl's
  // positional arguments) its entries were taken from that run's output by.
  std::vector<std::string> journal_match;
  // The slices' read was narrowed (collector/journal_splitter.h): the command
  // that went on from its cursor with the open slices' matches; empty when
  // every slice was full. Unset when the read was whole.
  std::optional<std::vector<std::string>> journal_narrowed_argv;
  std::string executable;    // command: resolved path, "" when not found
  std::string path;          // file/listing: host path (as seen on the node)
  std::string context;       // "host" | "container"
  std::string container_id;  // when context == "container"
  int phase = 0;             // 1 passive, 2 runtime, 3 container state, 4 driver
  int64_t started_at_unix_ns = 0;
  int64_t ended_at_unix_ns = 0;
  int64_t duration_ns = 0;
  ProbeStatus status = ProbeStatus::kError;  // how the probe ended; kError until it has
  std::optional<int> exit_code;
  std::optional<int> signal;
  bool timed_out = false;
  bool abandoned = false;    // the process did not die after SIGKILL; we stopped waiting
  bool truncated = false;    // any stream was truncated
  std::optional<SkipReason> skip_reason;  // when status is kSkipped
  std::string error;         // human-readable detail for skipped/error
  int redactions = 0;        // secret values replaced before storing
  std::vector<ManifestOutput> outputs;
  std::string source_file;   // imported bundles: where in the source this came from ("" otherwise)
  // Redacted bundles only: replacements per class ("ipv4" -> 3), the redaction report.
  std::map<std::string, int64_t> redaction_counts;

  const ManifestOutput* FindOutput(std::string_view stream) const;
};

// Set only on bundles made by `gpuforensics import` from another tool's
// capture (schema/bundle.md, "Origin"); empty kind for collected bundles.
// One file of the source and what became of it (origin.inputs).
struct ManifestInputFile {
  std::string path;                    // in the source
  std::string read_as;                 // the shape it was read as, "" when not read
  std::vector<std::string> artifacts;  // logical names it became
  std::string note;                    // view, dropped lines, what could not be read
  std::string not_read;                // why nothing was read, "" when read
};

struct ManifestOrigin {
  std::string kind;                      // "sosreport", "nvidia-bug-report", "must-gather", "evidence-dir"
  std::string source;                    // file or directory name of the source, without its path
  std::vector<std::string> cannot_show;  // logical names this kind of input never carries
  std::vector<ManifestInputFile> inputs; // what became of the source's files
  std::vector<std::string> capture_next; // commands that would capture what this kind cannot show
};

// One step of resolving the Node's name (collector/node_identity.h): where
// it looked and the name it found there ("" when none).
struct ManifestNameStep {
  std::string source;  // "option", "env", "kubelet_flag", "kubelet_config", "mirror_pod", "kubelet_journal", "hostname"
  std::string from;    // the file, process or variable that gave the value; "" when nothing did
  std::string value;

  bool operator==(const ManifestNameStep&) const = default;
};

// Redacted bundles only (schema/bundle.md, "Redacted bundles").
struct ManifestRedaction {
  bool redacted = false;
  std::string by;                     // "collect" (--redact) | "redact" (offline)
  std::vector<std::string> classes;   // the classes applied
  int user_patterns = 0;              // --redact-keyword words and --redact-pattern patterns
};

struct Manifest {
  // The SHA-256 of the manifest.json bytes it was parsed from, hex; "" for
  // one not read from bytes. Re-packing keeps the bytes, so it names the
  // bundle whatever archive holds it (BundleId).
  std::string source_sha256;
  std::string format;        // kBundleFormatName
  int format_version = 0;
  std::string tool_name;
  std::string tool_version;
  // host identity
  std::string hostname;
  std::string node_name;
  std::string node_name_source;             // the step that named the Node, "" when none did (or an older bundle)
  std::vector<ManifestNameStep> node_name_steps;
  std::optional<bool> node_found;           // the API's answer to `kubectl get node NAME`; nullopt when not asked
  std::string kubeconfig;                   // what kubectl was given, "" when nothing (or in-cluster)
  std::string kubeconfig_source;            // "option", "env", "kubelet_flag", "platform", "in_cluster", ""
  std::string platform;                     // common/platforms.h ids: "openshift+gpu-operator"
  // The host file that recognised the distribution; "" when none did and
  // the platform is the kubeadm fallback; nullopt where not recorded.
  std::optional<std::string> platform_evidence;
  std::string machine_id;
  std::string boot_id;
  // collection
  int64_t started_at_unix_ns = 0;
  int64_t ended_at_unix_ns = 0;
  int64_t started_monotonic_ns = 0;
  int64_t ended_monotonic_ns = 0;
  bool complete = true;
  std::string incomplete_reason;  // "interrupted" | "deadline" | "members_not_written" when !complete
  std::string tz_env;             // TZ of the collector process, "" when unset
  int utc_offset_seconds = 0;     // collector's local offset at start
  // options used
  std::string root = "/";
  int64_t probe_timeout_ms = 0;
  int64_t deadline_ms = 0;
  std::string plugin_pattern;
  std::string exec_mode;
  bool no_driver = false;
  bool fixed_time = false;
  std::vector<ManifestArtifact> artifacts;
  ManifestOrigin origin;
  ManifestRedaction redaction;

  // By (name, instance) through an index built on first use and rebuilt
  // when `artifacts` changed since: constant time, not a scan (a bundle may
  // list hundreds of thousands). Not safe to call from two threads on one
  // Manifest at once.
  const ManifestArtifact* Find(std::string_view name, std::string_view instance = {}) const;
  ManifestArtifact* FindMutable(std::string_view name, std::string_view instance = {});
  std::vector<const ManifestArtifact*> FindAll(std::string_view name) const;

 private:
  struct FindIndex;
  mutable std::shared_ptr<const FindIndex> find_index_;
  std::optional<size_t> IndexOf(std::string_view name, std::string_view instance) const;
};

std::string SerializeManifest(const Manifest& manifest);

// Fails with BadInput on malformed JSON or missing required fields, and with
// Unsupported when format_version is newer than this build understands.
Result<Manifest> ParseManifest(std::string_view json);

// The bundle's ID for ticket references, "gf-" and the first 12 hex digits
// of its manifest's SHA-256 ("gf-3f9a0c2b7e41"); "" when the manifest was
// not read from bytes.
std::string BundleId(const Manifest& manifest);

}  // namespace gpuf

#endif  // GPUF_COMMON_MANIFEST_H_
