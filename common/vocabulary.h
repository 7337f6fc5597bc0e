// The closed word lists C++ and SQL share: how a probe ended, why it was
// skipped, a finding's severity and confidence, what a rule came to, and
// the timeline's milestones. Each is an enum whose names are written once, here, in the
// enum's order; Name() and Parse() convert, and the CHECK constraints of
// schema/*.sql list the same words (tests/schema_docs_test.cc compares).
// Rule SQL that compares one of these columns with a word not listed here
// fails `rules lint` (analyzer/rules/sql_words.h); SQL in the code names
// milestones as $milestone(...) parameters (analyzer/sql_vocabulary.h).
#ifndef GPUF_COMMON_VOCABULARY_H_
#define GPUF_COMMON_VOCABULARY_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpuf {

// artifacts.status, the manifest's artifacts[].status.
enum class ProbeStatus { kOk, kNonzeroExit, kSignaled, kTimedOut, kInterrupted, kSkipped, kError };
inline constexpr std::string_view kProbeStatusNames[] = {
    "ok", "nonzero_exit", "signaled", "timed_out", "interrupted", "skipped", "error"};

// artifacts.skip_reason, for a skipped probe.
enum class SkipReason {
  kToolMissing, kNotFound, kNotRegularFile, kPermissionDenied, kNotApplicable, kDeniedByPolicy, kDisabled,
  kDeadline, kInterrupted
};
inline constexpr std::string_view kSkipReasonNames[] = {
    "tool_missing", "not_found", "not_regular_file", "permission_denied", "not_applicable", "denied_by_policy",
    "disabled", "deadline", "interrupted"};

// A rule's and a finding's severity, most severe first.
enum class Severity { kCritical, kHigh, kMedium, kLow, kInfo };
inline constexpr std::string_view kSeverityNames[] = {"critical", "high", "medium", "low", "info"};

// How sure a finding is, surest first.
enum class Confidence { kConfirmed, kLikely, kPossible };
inline constexpr std::string_view kConfidenceNames[] = {"confirmed", "likely", "possible"};

// rule_runs.outcome: what a rule came to on one bundle. ruled_out: held
// evidence against it; unknown: the deciding evidence was not captured.
enum class RuleOutcome { kFail, kWarn, kPass, kRuledOut, kUnknown, kSkipped, kError };
inline constexpr std::string_view kRuleOutcomeNames[] = {"fail",    "warn",    "pass", "ruled_out",
                                                         "unknown", "skipped", "error"};

// A finding's tense: the fault at capture, history (an earlier boot, or
// undone before capture), or ruled out by evidence against it. findings.tense
// holds the first two; a ruled-out finding is stored with the diagnosis.
enum class Tense { kCurrent, kHistory, kRuledOut };
inline constexpr std::string_view kTenseNames[] = {"current", "history", "ruled_out"};

// events.milestone: the steps of the GPU chain on the timeline
// (analyzer/timeline/timeline.cc places them).
enum class Milestone {
  kDriverLoaded, kPersistencedStarted, kFabricmanagerStarted, kContainerdStarted, kKubeletStarted,
  kKubeletSockCreated, kPluginContainerCreated, kPluginContainerStarted, kPluginContainerFinished,
  kPluginServiceStarted, kPluginNvmlInitFailed, kPluginServing, kPluginRegistered, kPluginKubeletRestartSeen,
  kKubeletRegistrationReceived, kKubeletListAndWatchEnded, kDaemonReload, kXid, kDeviceUnhealthy,
  kNodeConditionChanged, kClusterEvent, kMetricDropped, kAlertFiring, kAlertResolved, kBoot, kCollection
};
inline constexpr std::string_view kMilestoneNames[] = {
    "driver_loaded", "persistenced_started", "fabricmanager_started", "containerd_started", "kubelet_started",
    "kubelet_sock_created", "plugin_container_created", "plugin_container_started", "plugin_container_finished",
    "plugin_service_started", "plugin_nvml_init_failed", "plugin_serving", "plugin_registered",
    "plugin_kubelet_restart_seen", "kubelet_registration_received", "kubelet_list_and_watch_ended",
    "daemon_reload", "xid", "device_unhealthy", "node_condition_changed", "cluster_event",
    "metric_dropped", "alert_firing", "alert_resolved", "boot", "collection"};

// Each enum's names, in its order.
template <typename E> constexpr std::span<const std::string_view> Names();
template <> constexpr std::span<const std::string_view> Names<ProbeStatus>() { return kProbeStatusNames; }
template <> constexpr std::span<const std::string_view> Names<SkipReason>() { return kSkipReasonNames; }
template <> constexpr std::span<const std::string_view> Names<Severity>() { return kSeverityNames; }
template <> constexpr std::span<const std::string_view> Names<Confidence>() { return kConfidenceNames; }
template <> constexpr std::span<const std::string_view> Names<RuleOutcome>() { return kRuleOutcomeNames; }
template <> constexpr std::span<const std::string_view> Names<Milestone>() { return kMilestoneNames; }
template <> constexpr std::span<const std::string_view> Names<Tense>() { return kTenseNames; }

static_assert(std::size(kProbeStatusNames) == static_cast<size_t>(ProbeStatus::kError) + 1);
static_assert(std::size(kSkipReasonNames) == static_cast<size_t>(SkipReason::kInterrupted) + 1);
static_assert(std::size(kSeverityNames) == static_cast<size_t>(Severity::kInfo) + 1);
static_assert(std::size(kConfidenceNames) == static_cast<size_t>(Confidence::kPossible) + 1);
static_assert(std::size(kRuleOutcomeNames) == static_cast<size_t>(RuleOutcome::kError) + 1);
static_assert(std::size(kMilestoneNames) == static_cast<size_t>(Milestone::kCollection) + 1);
static_assert(std::size(kTenseNames) == static_cast<size_t>(Tense::kRuledOut) + 1);

// `value` is `floor` or more severe.
constexpr bool AtLeast(Severity value, Severity floor) { return value <= floor; }

// What counts as serious, once: it makes analyze and `rules run` exit 1 and
// a fleet's node show in "nodes with serious findings".
constexpr bool Serious(Severity value) { return AtLeast(value, Severity::kMedium); }

// `a` is surer than `b`.
constexpr bool SurerThan(Confidence a, Confidence b) { return a < b; }

// One step less sure: confirmed -> likely -> possible; possible stays possible.
constexpr Confidence Lowered(Confidence value) {
  return value == Confidence::kPossible ? value : static_cast<Confidence>(static_cast<int>(value) + 1);
}

// The word for `value`.
template <typename E>
constexpr std::string_view Name(E value) {
  return Names<E>()[static_cast<size_t>(value)];
}

// The word for `value` as a std::string, for text built with `+`.
template <typename E>
std::string Word(E value) {
  return std::string(Name(value));
}

// The value named `text`, or nullopt when no value has that name.
template <typename E>
constexpr std::optional<E> Parse(std::string_view text) {
  auto names = Names<E>();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<E>(i);
  }
  return std::nullopt;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_VOCABULARY_H_
