// The Report: everything a renderer shows, as values; build_report.h
// computes it from the database.
//
// Renderers see only this struct. It carries the bundle's identity and
// integrity, the GPU chain verdict, the boot timeline's milestones and
// intervals, and what the bundle could not show (coverage).
#ifndef GPUF_ANALYZER_REPORT_REPORT_H_
#define GPUF_ANALYZER_REPORT_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/report/cannot_tell.h"
#include "analyzer/rules/differential.h"
#include "analyzer/rules/finding.h"
#include "analyzer/timeline/timeline_rows.h"
#include "chain/chain_steps.h"
#include "common/manifest.h"

namespace gpuf {

struct ReportedVersion {
  std::string component;  // "containerd", "nvidia-device-plugin", ...
  std::string version;    // as printed
  std::string artifact;   // where it was read
};

// One artifact that is present but says less than it should.
struct ArtifactNote {
  std::string artifact;  // logical name[instance]
  std::string note;      // "empty", "truncated by the 16 MiB cap", "3 lines unparsed"
};

// The single safest next step for this node, from the finding the report
// leads with (its first remediation step, placeholders made exact for this
// node by node_commands.h). A node whose faults are all history gets a
// step that keeps it from recurring, never a restart.
struct NextAction {
  std::string kind;     // "fix" (a current fault) | "prevent" (history only) | "" (nothing recognized)
  std::string rule_id;  // whose step it is
  std::string text;     // the step as the report shows it
  std::string command;  // the exact command for this node; "" when the step has none or facts are missing
};

// How the outage was noticed, from the metrics store's record (k8s.metrics,
// on the node's clock): the leading finding's first timed sign, the first
// drop of a GPU resource's allocatable, and the first alert naming the node
// at or after it.
struct Detection {
  std::string cause_rule;           // the leading finding; "" when there is none
  std::optional<int64_t> cause_ns;  // its earliest timed event evidence; nullopt when none is timed
  std::string drop;                 // "nvidia_com_gpu allocatable 8 -> 0"
  int64_t dropped_ns = 0;
  std::string alert;                // the alert's name; "" when none fired by the capture
  std::optional<int64_t> alert_ns;
  int64_t end_ns = 0;               // the capture, where the record ends
};

// The device plugin's DaemonSet at capture (k8s.plugin_daemonset): was a
// rollout under way? Counts are nullopt where its status left them out.
struct PluginRollout {
  std::string name;  // namespace/name
  std::optional<int64_t> generation, observed_generation, desired, updated, available, unavailable;
  std::string update_strategy;  // RollingUpdate | OnDelete | ""
};

struct Report {
  std::string bundle_path;
  // The collected bundle's ID (BundleId: its manifest's hash, the same after
  // re-packing); "" for an import, whose manifest this analysis made.
  std::string bundle_id;
  std::string node;
  std::string node_zone;  // IANA name from the bundle, "" when unknown
  // How the collector named the Node and reached the API ("from kubelet_flag
  // (/etc/...); hostname iz...z; kubeconfig /etc/kubernetes/kubelet.conf
  // (kubelet_flag); platform ack"), and whether the API knew that name;
  // "" for bundles that do not record it.
  std::string node_identity;
  int64_t collected_at_ns = 0;
  std::string tool_version;
  bool complete = true;
  std::string incomplete_reason;
  std::vector<std::string> integrity_issues;
  std::vector<ChainStep> verdict;
  std::vector<Finding> findings;  // current and history, in the diagnosis's order (root cause first)
  std::vector<Finding> ruled_out; // considered and ruled out by evidence against
  Diagnosis diagnosis;
  NextAction next_action;
  std::vector<RuleRun> rule_runs;  // every rule considered, with its outcome
  std::vector<TimelineRow> milestones;
  std::vector<Interval> intervals;
  // About how far back the Node's events collect read reach: the API server
  // keeps events one hour by default, so an older NodeNotReady may be gone,
  // not absent. Unset when no events were read at capture.
  std::optional<int64_t> node_events_since_ns;
  // Set when the metrics store recorded a drop of the node's GPU count.
  std::optional<Detection> detection;
  std::optional<PluginRollout> plugin_rollout;  // set when the plugin's DaemonSet was read
  int64_t artifacts_total = 0;
  int64_t artifacts_ok = 0;
  int64_t artifacts_failed = 0;  // nonzero exit, signal, timeout, error
  int64_t artifacts_skipped = 0;
  std::vector<std::string> coverage;  // skipped and failed artifacts with reasons
  std::string input_kind = "gpuforensics-bundle";  // or the origin of an imported bundle: "sosreport", ...
  std::string input_source;              // the imported source's name, "" for collected bundles
  std::vector<std::string> cannot_show;  // artifacts that kind of input never carries
  std::vector<ManifestInputFile> input_files;  // imported: every file of the source, read or not, and why
  std::vector<std::string> capture_next;       // imported: commands that would capture what the kind cannot show
  std::vector<CannotTell> cannot_tell;         // imported: the captures that would decide the checks that could not run
  std::string redacted_by;               // "collect" | "redact" when names and addresses are pseudonyms
  int64_t parse_warnings = 0;
  int64_t timeline_warnings = 0;
  // Added for the Markdown and HTML summaries; renderers that predate them ignore them.
  std::vector<ReportedVersion> versions;     // by component
  int64_t artifacts_timed_out = 0;            // among the failed
  std::vector<ArtifactNote> empty;            // ran fine, produced nothing
  std::vector<ArtifactNote> truncated;        // a collector cap cut them
  std::vector<ArtifactNote> unparsed;         // parse warnings, by artifact
};

// "by gpuforensics 0.1.0", or for a bundle imported from another tool's
// capture "by sosreport 'NAME', imported by gpuforensics 0.1.0"; a redacted
// bundle adds how, since its names and addresses are pseudonyms.
std::string CapturedBy(const Report& report);

// True when a finding of medium severity or above is present.
bool HasSeriousFinding(const Report& report);
// True when a step of the chain verdict FAILED (the report says BROKEN).
bool ChainBroken(const Report& report);
// What the report cannot vouch for, one line each: an incomplete bundle,
// members missing or not matching the manifest, no rule run, a rule in
// error. Empty when nothing.
std::vector<std::string> ReportGaps(const Report& report);

// analyze's exit status for one bundle (common/exit_codes.h): findings when
// the chain is BROKEN or a finding is at medium or above, else incomplete
// when ReportGaps says anything, else ok.
int AnalysisExitStatus(const Report& report);

// The finding of `rule_id` among the report's findings and ruled-out ones; nullptr when none.
const Finding* FindFinding(const Report& report, const std::string& rule_id);

// The Report's node_identity line from the manifest's host fields.
std::string NodeIdentityLine(const Manifest& m);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_REPORT_H_
