#include "analyzer/render/report_lines.h"

#include <cstdio>
#include <map>
#include <vector>

#include "chain/cluster_steps.h"
#include "common/text_lines.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

std::string StepsLine(const Report& r) {
  int failed = 0, unknown = 0, first_failed = 0, number = 0;
  std::string first_name;
  for (const auto& step : r.verdict) {
    ++number;
    if (step.status == StepStatus::kFailed && failed++ == 0) {
      first_failed = number;
      first_name = step.name;
    }
    unknown += step.status == StepStatus::kUnknown;
  }
  if (r.verdict.empty()) return "not computed";
  if (r.verdict.front().status == StepStatus::kNotApplicable) {
    return "not a GPU node (no NVIDIA GPU on the PCI bus, and no driver, /dev/nvidia* or GPU resource on the Node shows one)";
  }
  if (failed > 0) {
    std::string line = "BROKEN at step " + std::to_string(first_failed) + ", " + first_name;
    if (failed > 1)
      line += " (" + std::to_string(failed - 1) + (failed > 2 ? " later steps fail" : " later step fails") + " with it)";
    return line;
  }
  if (unknown == 0) return "every step ok";
  return "no step failed, " + std::to_string(unknown) + " of " + std::to_string(number) + " unknown from this bundle";
}

bool Broken(const Report& r) {
  for (const auto& step : r.verdict) {
    if (step.status == StepStatus::kFailed) return true;
  }
  return false;
}

// Every step on the node ok - those outside it (kube-state-metrics, the
// metrics store, alerting) only the laptop's capture shows - no current finding at medium or above, a whole and intact
// collection, and every rule evaluated: the one case the report may call
// the node healthy (the no-findings caveat says the opposite otherwise).
bool Healthy(const Report& r) {
  if (!r.complete || !r.integrity_issues.empty() || r.rule_runs.empty() || RulesNotEvaluated(r) > 0) return false;
  if (r.verdict.empty() || r.verdict.front().status != StepStatus::kOk) return false;
  for (const auto& step : r.verdict) {
    const bool fine = step.status == StepStatus::kOk || step.status == StepStatus::kNotApplicable;
    if (!fine && !OutsideTheNode(step.id)) return false;
  }
  for (const auto& f : r.findings) {
    if (f.tense == Tense::kCurrent && Serious(f.severity)) return false;
  }
  return true;
}

std::string HealthyLine(const Report& r) {
  size_t ok = 0, not_applicable = 0;
  std::vector<std::string> outside_ok, outside_unchecked;
  int first_outside = 0, number = 0;
  for (const auto& step : r.verdict) {
    ++number;
    if (!OutsideTheNode(step.id)) {
      (step.status == StepStatus::kOk ? ok : not_applicable)++;
      continue;
    }
    if (!first_outside) first_outside = number;
    (step.status == StepStatus::kOk ? outside_ok : outside_unchecked).push_back(step.name);
  }
  std::string line = "HEALTHY: all " + std::to_string(ok + not_applicable) + " steps on the node ok";
  if (not_applicable) line += " (" + std::to_string(not_applicable) + " not applicable)";
  if (!outside_ok.empty()) line += "; outside it, " + Join(outside_ok, ", ") + " ok";
  if (!outside_unchecked.empty() && outside_ok.empty()) {
    line += "; steps " + std::to_string(first_outside) + " to " + std::to_string(number) + " (" +
            Join(outside_unchecked, ", ") + ") are outside it and not checked";
  } else if (!outside_unchecked.empty()) {
    line += "; " + Join(outside_unchecked, ", ") + " not checked";
  }
  return line;
}

}  // namespace

std::string RootCauseLine(const Report& r) {
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  if (!leader) return "";
  const Finding* f = FindFinding(r, leader->rule_id);
  std::string line = leader->place == "root_cause" ? "root cause: " : "leading finding (" + leader->role + "): ";
  line += leader->rule_id + " (" + std::string(f ? Name(f->confidence) : "") + ")";
  for (const auto& e : r.diagnosis.entries) {
    if (e.group != 1 || e.place != "competing") continue;
    const Finding* other = FindFinding(r, e.rule_id);
    line += " or " + e.rule_id + " (" + std::string(other ? Name(other->confidence) : "") + ")";
  }
  return line;
}

std::string ChainVerdictLine(const Report& r) {
  std::string line = StepsLine(r);
  std::string cause = RootCauseLine(r);
  if (!cause.empty()) return line + "; " + cause;
  if (Broken(r)) return line + "; no known issue explains it";
  if (Healthy(r)) return HealthyLine(r);
  return line;
}

bool RuleNotEvaluated(const RuleRun& run) {
  return run.outcome == RuleOutcome::kSkipped || run.outcome == RuleOutcome::kError || run.outcome == RuleOutcome::kUnknown;
}

int RulesNotEvaluated(const Report& r) {
  int n = 0;
  for (const auto& run : r.rule_runs) n += RuleNotEvaluated(run);
  return n;
}

std::string NoFindingsCaveat(const Report& r) {
  std::string caveat;
  if (!r.complete) caveat += "The collection was cut short (" + r.incomplete_reason + "). ";
  if (!r.integrity_issues.empty()) {
    caveat += std::to_string(r.integrity_issues.size()) + " of the bundle's members are missing or do not match the "
              "manifest (see Integrity). ";
  }
  if (r.rule_runs.empty()) return caveat + "No rule ran: this is not a statement that the node is healthy.";
  const int not_evaluated = RulesNotEvaluated(r);
  const int64_t missing = r.artifacts_failed + r.artifacts_skipped;
  if (not_evaluated > 0) {
    caveat += std::to_string(not_evaluated) + " of " + std::to_string(r.rule_runs.size()) +
              " rules could not be checked for lack of evidence (see Coverage): this is not a statement that the "
              "node is healthy.";
  } else if (!r.complete || !r.integrity_issues.empty()) {
    caveat += "This is not a statement that the node is healthy.";
  } else if (missing > 0) {
    caveat += "Every rule had the evidence it needs, but " + std::to_string(missing) + " of " +
              std::to_string(r.artifacts_total) + " artifacts are missing or failed (see Coverage).";
  }
  return caveat;
}

std::string FindingsLine(const Report& r) {
  const std::string checked = std::to_string(r.rule_runs.size());
  std::vector<const Finding*> current;
  size_t history = 0;
  for (const auto& f : r.findings) {
    if (f.tense == Tense::kHistory) {
      ++history;
    } else {
      current.push_back(&f);
    }
  }
  std::string also;
  if (history > 0) also += ", " + std::to_string(history) + " from history";
  if (!r.ruled_out.empty()) also += ", " + std::to_string(r.ruled_out.size()) + " ruled out";
  if (current.empty()) {
    std::string caveat = NoFindingsCaveat(r);
    std::string line = also.empty() ? "no known issue recognized among " + checked + " checked"
                                     : "no current known issue among " + checked + " checked" + also;
    return line + (caveat.empty() ? "" : ". " + caveat);
  }
  std::map<Severity, int> by_severity;  // most severe first
  for (const Finding* f : current) ++by_severity[f->severity];
  std::string counts;
  for (const auto& [severity, n] : by_severity) {
    counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + Word(severity);
  }
  size_t n = current.size();
  return std::to_string(n) + (n == 1 ? " finding (" : " findings (") + counts + ")" + also + " of " + checked +
         " known issues checked";
}

std::string LocalAndUtc(int64_t ns, const DisplayZone& zone, const std::string& node_zone) {
  std::string shown = zone.Format(ns);
  if (zone.name() != "UTC") return shown + " (" + DisplayZone().Format(ns).substr(11) + ")";
  if (node_zone.empty() || node_zone == "UTC" || node_zone == "Etc/UTC") return shown;
  auto node = DisplayZone::Parse("node", node_zone);
  if (!node.ok()) return shown;
  return shown + " (node " + node->Format(ns).substr(11) + ")";
}

std::string PlaceWords(const DiagnosisEntry& e) {
  if (e.place == "root_cause") return "root cause";
  if (e.place == "lead") return "leading finding (" + e.role + ")";
  if (e.place == "competing") return "competing cause";
  if (e.place == "alternative") return "other possible cause";
  if (e.place == "history") return "history";
  if (e.place == "ruled_out") return "ruled out";
  return e.place;  // trigger, amplifier, consequence: listed under the root cause
}

std::string NextActionLine(const Report& r) {
  const NextAction& next = r.next_action;
  if (next.kind == "fix") return next.text;
  if (next.kind == "prevent") {
    return "nothing to restart, no current fault; to keep " + next.rule_id + " from recurring: " + next.text;
  }
  return "";
}

std::string ConfidenceLine(const Finding& f) {
  if (f.confidence_steps.size() == 1 && f.confidence == Confidence::kConfirmed) return "";
  return Join(f.confidence_steps, "; ");
}

std::string AgainstStateWords(const AgainstResult& a) {
  if (a.state == "held") return a.effect == "rule-out" ? "HELD (rules it out)" : "HELD (lowers confidence)";
  if (a.state == "not_seen") return "not seen";
  std::string needs;
  for (const auto& n : a.needs) needs += (needs.empty() ? "" : ", ") + n;
  return "not captured (" + needs + ")";
}

std::string InputFileLine(const ManifestInputFile& file) {
  if (!file.not_read.empty()) return "not read " + file.path + ": " + file.not_read;
  std::string line = "read " + file.path + " as " + file.read_as + ":";
  for (size_t i = 0; i < file.artifacts.size(); ++i) line += (i ? ", " : " ") + file.artifacts[i];
  if (!file.note.empty()) line += " (" + file.note + ")";
  return line;
}

std::string CannotTellLine(const CannotTell& c) {
  // At most four ids, then how many more: the capture is the point, not the list.
  auto list = [](const std::vector<std::string>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size() && i < 4; ++i) out += (i ? ", " : "") + ids[i];
    if (ids.size() > 4) out += " and " + std::to_string(ids.size() - 4) + " more";
    return out;
  };
  std::string line;
  for (size_t i = 0; i < c.captures.size(); ++i) line += (i ? " or " : "") + c.captures[i];
  if (!c.would_confirm.empty()) line += ": would confirm " + list(c.would_confirm);
  if (!c.rules.empty()) {
    line += std::string(c.would_confirm.empty() ? ":" : ";") + " would decide " + list(c.rules);
  }
  return line;
}

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", seconds);
  return text;
}

std::string NodeEventsWindow(int64_t since_ns, const DisplayZone& zone) {
  return "The Node's events (k8s.events) go back to about " + zone.Format(since_ns) +
         ": the API server keeps events 1 h by default, so an earlier NodeNotReady may be gone, not absent.";
}

std::string DetectionLine(const Detection& d, const DisplayZone& zone) {
  std::string line = "the GPU count dropped at " + zone.Format(d.dropped_ns) + " (" + d.drop + ")";
  if (d.cause_ns) {
    const int64_t delay = d.dropped_ns - *d.cause_ns;
    line += ", " + SpanText(delay) + (delay >= 0 ? " after" : " before") + " the first sign of " + d.cause_rule + " (" +
            zone.Format(*d.cause_ns) + ")";
  }
  if (d.alert_ns) {
    line += "; alert " + d.alert + " fired at " + zone.Format(*d.alert_ns) + ", " +
            SpanText(*d.alert_ns - d.dropped_ns) + " after the drop";
  } else {
    line += "; no alert naming the node fired in the " + SpanText(d.end_ns - d.dropped_ns) + " to the capture";
  }
  return line;
}

std::string RolloutLine(const PluginRollout& d) {
  const std::string head = "The device plugin's DaemonSet " + d.name + ": ";
  const auto n = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); };
  if (d.generation && d.observed_generation && *d.observed_generation < *d.generation) {
    return head + "generation " + n(d.generation) + " not yet acted on by its controller (it has " +
           n(d.observed_generation) + "): a change to it is pending";
  }
  const bool updated = d.updated && d.desired && *d.updated >= *d.desired;
  const bool available = d.unavailable && *d.unavailable == 0;
  if (updated && available)
    return head + "rolled out, " + n(d.updated) + " of " + n(d.desired) + " pods updated and available";
  std::string line = head +
                     (d.update_strategy == "OnDelete" ? "pods of an older template stay until deleted (OnDelete), "
                                                      : "a rollout under way, ") +
                     n(d.updated) + " of " + n(d.desired) + " pods updated";
  if (d.unavailable && *d.unavailable > 0) line += ", " + n(d.unavailable) + " unavailable";
  return line;
}

}  // namespace gpuf
