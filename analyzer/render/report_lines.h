// One-line summaries of a Report that every renderer shows the same way.
#ifndef GPUF_ANALYZER_RENDER_REPORT_LINES_H_
#define GPUF_ANALYZER_RENDER_REPORT_LINES_H_

#include <cstdint>
#include <string>

#include "analyzer/render/display_zone.h"
#include "analyzer/report/report.h"

namespace gpuf {

// "BROKEN at step 7, device plugin NVML init (2 later steps fail with it);
// root cause: dp-started-before-driver-ready (confirmed)", "every step ok",
// "no step failed, 1 of 10 unknown from this bundle": the first failed step
// and the root cause the diagnosis leads with ("no known issue explains it"
// when a step failed and nothing does).
std::string ChainVerdictLine(const Report& report);

// "root cause: a (confirmed)", "root cause: a (likely) or b (likely)" when
// causes compete, "leading finding (consequence): c (likely)"; "" when no
// current finding.
std::string RootCauseLine(const Report& report);

// "2 findings (2 high), 1 from history, 1 ruled out of 28 known issues
// checked", "no current known issue recognized among 28 checked; 3 could
// not be checked for lack of evidence: this is not a statement that the
// node is healthy". History and ruled-out candidates are not counted as
// findings.
std::string FindingsLine(const Report& report);

// What a report without findings must add so that nobody reads it as
// "healthy": rules that could not run, artifacts that are missing, a
// collection cut short. "" when the bundle was whole and every rule ran.
std::string NoFindingsCaveat(const Report& report);

// A rule skipped for missing evidence, undecided for it (unknown), or failed:
// no finding from it says nothing about the node.
bool RuleNotEvaluated(const RuleRun& run);

// How many rules of the report were not evaluated.
int RulesNotEvaluated(const Report& report);

// An evidence time both ways: in the display zone with the UTC time after
// it, "2026-11-18T11:18:17.378+08:00 (03:18:17.378Z)"; or, shown in UTC,
// with the node's own time after it when its zone is known,
// "2026-11-18T03:18:17.378Z (node 11:18:17.378+08:00)" (its logs speak it).
std::string LocalAndUtc(int64_t unix_ns, const DisplayZone& zone, const std::string& node_zone);

// What a diagnosis entry is to the reader: "root cause", "leading finding
// (consequence)", "competing cause", "other possible cause", "amplifier",
// "history", "ruled out".
std::string PlaceWords(const DiagnosisEntry& entry);

// The next action as one line: the step for a current fault; "nothing to
// restart, no current fault; to keep X from recurring: step" when only
// history; "" when nothing is recognized.
std::string NextActionLine(const Report& report);

// What a check of evidence against found: "HELD (rules it out)", "HELD
// (lowers confidence)", "not seen", "not captured (plugin.devices_list)".
std::string AgainstStateWords(const AgainstResult& check);

// Why a finding's confidence is what it is, as one line: "confirmed: all 2
// confirming pieces observed; likely: held against: ..."; "" for a finding
// confirmed by its pieces with nothing after.
std::string ConfidenceLine(const Finding& finding);

// "0.748 s".
std::string FormatSeconds(double seconds);

// "The Node's events (k8s.events) go back to about 2026-11-18T12:30:00.000Z:
// the API server keeps events 1 h by default, so an earlier NodeNotReady
// may be gone, not absent."
std::string NodeEventsWindow(int64_t since_ns, const DisplayZone& zone);

// "the GPU count dropped at 03:18:37 (nvidia_com_gpu allocatable 8 -> 0),
// 23 s after the first sign of dp-nvml-init-race (03:18:14); alert
// GPUUnschedulable fired at 03:23:37, 5 min after the drop": when the
// outage began and when it was noticed.
std::string DetectionLine(const Detection& detection, const DisplayZone& zone);

// "The device plugin's DaemonSet gpu-operator/nvidia-device-plugin-daemonset:
// a rollout under way, 3 of 10 pods updated, 2 unavailable" (or "rolled
// out: 10 of 10 pods updated and available").
std::string RolloutLine(const PluginRollout& rollout);

// One file of an imported input: "read dmesg.txt as dmesg -T: journal.kernel
// (local times read as UTC ...)" or "not read case.yaml: not recognised:
// first line `source: ...`".
std::string InputFileLine(const ManifestInputFile& file);

// "config.containerd or runtime.crictl_info: would confirm runtimeclass-handler-missing";
// the command that takes it is the renderer's to add.
std::string CannotTellLine(const CannotTell& c);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_REPORT_LINES_H_
