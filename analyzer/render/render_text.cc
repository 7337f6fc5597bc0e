#include "analyzer/render/render_text.h"

#include <cstdio>
#include <sstream>

#include "analyzer/render/report_lines.h"
#include "analyzer/render/text_wrap.h"
#include "common/artifacts.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// ANSI SGR codes, used only when TextStyle::color is set.
constexpr const char* kBold = "1";
constexpr const char* kRed = "1;31";
constexpr const char* kGreen = "32";
constexpr const char* kYellow = "33";
constexpr const char* kDim = "2";

class Painter {
 public:
  explicit Painter(const TextStyle& style) : color_(style.color) {}
  std::string operator()(const char* sgr, const std::string& text) const {
    if (!color_ || text.empty()) return text;
    return "\x1b[" + std::string(sgr) + "m" + text + "\x1b[0m";
  }

 private:
  bool color_;
};

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return text;
}

const char* StatusColor(StepStatus status) {
  return status == StepStatus::kFailed ? kRed : status == StepStatus::kOk ? kGreen : kYellow;
}

const char* SeverityColor(Severity severity) {
  if (AtLeast(severity, Severity::kHigh)) return kRed;
  if (severity == Severity::kMedium) return kYellow;
  return kDim;
}

std::string Badge(const Finding& f) { return "[" + Upper(Word(f.severity)) + ", " + Word(f.confidence) + "]"; }

// Two lines whose length does not depend on where the bundle lies: which
// node and when, and the bundle's ID and whether its members match the
// manifest (a collected bundle only). The path, the capturing tool and how
// the node was named come after the first screen.
void RenderHeader(const Report& r, const DisplayZone& zone, const Painter& paint, std::ostringstream& out) {
  out << "gpuforensics report: node " << (r.node.empty() ? "(unknown)" : r.node);
  if (!r.node_zone.empty()) out << " (zone " << r.node_zone << ")";
  out << ", collected " << zone.Format(r.collected_at_ns);
  out << (r.complete ? ", complete" : ", " + paint(kRed, "INCOMPLETE (" + r.incomplete_reason + ")")) << "\n";
  // An import's manifest is this analysis's own: there is nothing to check.
  if (r.bundle_id.empty()) return;
  out << "bundle " << r.bundle_id << ", integrity: ";
  if (r.integrity_issues.empty()) {
    out << "every member matches the manifest\n";
  } else {
    out << paint(kRed, "PROBLEMS") << " (" << r.integrity_issues.size() << ", listed under Bundle)\n";
  }
}

// Where the evidence came from: the file, the tool that captured it, how the
// Node was named, and the integrity problems one by one.
void RenderBundle(const Report& r, const Painter& paint, std::ostringstream& out) {
  out << "\n" << paint(kBold, "Bundle") << "\n";
  out << "  file: " << r.bundle_path << "\n";
  out << "  captured " << CapturedBy(r) << "\n";
  if (!r.node_identity.empty()) out << "  node identity: " << r.node_identity << "\n";
  for (const auto& issue : r.integrity_issues) out << "  integrity: " << issue << "\n";
}

// The first screen: verdict, root cause with confidence, what hangs under
// it, and the single safest next action with this node's command.
void RenderFirstScreen(const Report& r, const DisplayZone& zone, const Painter& paint, std::ostringstream& out) {
  out << "\n" << paint(kBold, "GPU chain verdict: " + ChainVerdictLine(r)) << "\n";
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  if (const Finding* f = leader ? FindFinding(r, leader->rule_id) : nullptr) {
    std::string head = leader->place == "root_cause" ? "Root cause " : "Leading finding (" + leader->role + ") ";
    out << paint(kBold, head) << paint(SeverityColor(f->severity), Badge(*f)) << paint(kBold, ": " + f->rule_id)
        << "\n";
    out << "  " << f->summary << "\n";
    for (const auto& e : r.diagnosis.entries) {
      if (e.group != 1 || e.rank == 1) continue;
      const Finding* other = FindFinding(r, e.rule_id);
      out << "  " << PlaceWords(e) << " " << Badge(*other) << ": " << e.rule_id << "\n";
    }
    if (!r.diagnosis.decider.empty()) out << "  to decide between them, " << r.diagnosis.decider << "\n";
  } else {
    out << paint(kBold, "Root cause: ") << "no current known issue recognized\n";
  }
  for (const auto& f : r.ruled_out) out << "  considered and ruled out: " << f.rule_id << " - " << f.tense_reason << "\n";
  if (r.detection) out << paint(kBold, "Detection: ") << DetectionLine(*r.detection, zone) << "\n";
  std::string next = NextActionLine(r);
  if (!next.empty()) out << paint(kBold, "Next action: ") << next << "\n";
  if (!r.next_action.command.empty()) out << "    " << r.next_action.command << "\n";
}

void RenderChainSteps(const Report& r, const Painter& paint, std::ostringstream& out) {
  out << "\n" << paint(kBold, "GPU chain") << "\n";
  int number = 0;
  for (const auto& step : r.verdict) {
    std::string status = Word(step.status);
    if (step.status == StepStatus::kFailed) status = Upper(status);
    if (step.status == StepStatus::kNotApplicable) status = "n/a";  // the column is 9 wide
    out << "  " << Pad(std::to_string(++number), 3) << Pad(step.name, 37)
        << paint(StatusColor(step.status), status) << std::string(status.size() < 9 ? 9 - status.size() : 0, ' ');
    out << (step.detail.empty() ? step.missing : step.detail);
    if (!step.detail.empty() && !step.missing.empty()) out << "; " << step.missing;
    out << "\n";
  }
}

void RenderEvidence(const std::vector<FindingEvidence>& rows, const DisplayZone& zone, const std::string& node_zone,
                    const std::string& indent, std::ostringstream& out) {
  for (const auto& e : rows) {
    out << indent;
    if (!e.artifact.empty()) out << e.artifact << (e.line ? ":" + std::to_string(*e.line) : "") << "  ";
    if (e.time_ns) out << LocalAndUtc(*e.time_ns, zone, node_zone) << "  ";
    out << (e.text.size() > 160 ? e.text.substr(0, 157) + "..." : e.text) << "\n";
  }
}

void RenderAgainst(const Finding& f, const DisplayZone& zone, const std::string& node_zone, std::ostringstream& out) {
  if (f.against.empty()) return;
  out << "    evidence against, checked:\n";
  for (const auto& a : f.against) {
    out << "      " << AgainstStateWords(a) << ": " << a.text << "\n";
    RenderEvidence(a.evidence, zone, node_zone, "        ", out);
  }
}

void RenderFinding(const Finding& f, const DiagnosisEntry* place, const DisplayZone& zone,
                   const std::string& node_zone, const Painter& paint, std::ostringstream& out) {
  out << "\n  " << paint(SeverityColor(f.severity), Badge(f)) << " " << (place ? PlaceWords(*place) + " - " : "")
      << paint(kBold, f.rule_id + ": " + f.title) << "\n";
  out << "    " << f.summary << "\n";
  if (f.tense != Tense::kCurrent) out << "    (" << f.tense_reason << ")\n";
  if (!ConfidenceLine(f).empty()) out << "    confidence: " << ConfidenceLine(f) << "\n";
  out << "    catalog: " << f.catalog << "\n";
  std::vector<FindingEvidence> events, exposure;
  for (const auto& e : f.evidence) (e.shows == "event" ? events : exposure).push_back(e);
  if (!events.empty()) out << (f.tense == Tense::kRuledOut ? "    evidence it rested on:\n" : "    evidence:\n");
  RenderEvidence(events, zone, node_zone, "      ", out);
  if (!exposure.empty()) out << "    context and preconditions (not the event itself):\n";
  RenderEvidence(exposure, zone, node_zone, "      ", out);
  RenderAgainst(f, zone, node_zone, out);
  if (f.tense == Tense::kRuledOut) return;
  if (!f.missing_evidence.empty()) out << "    would confirm it, not in the bundle:\n";
  for (const auto& m : f.missing_evidence) out << "      - " << m << "\n";
  if (!f.remediation.empty()) out << "    next steps, safest first:\n";
  int step = 0;
  for (const auto& r : f.remediation) out << "      " << ++step << ". " << r << "\n";
  for (const auto& ref : f.references) out << "    see: " << ref.url << (ref.title.empty() ? "" : " (" + ref.title + ")") << "\n";
}

void RenderFindings(const Report& r, const DisplayZone& zone, const Painter& paint, std::ostringstream& out) {
  out << "\n" << paint(kBold, "Findings: " + FindingsLine(r)) << "\n";
  bool history = false;
  for (const auto& f : r.findings) history = history || f.tense == Tense::kHistory;
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) RenderFinding(f, r.diagnosis.Find(f.rule_id), zone, r.node_zone, paint, out);
  }
  if (!r.ruled_out.empty()) out << "\n" << paint(kBold, "Considered and ruled out") << "\n";
  for (const auto& f : r.ruled_out) RenderFinding(f, nullptr, zone, r.node_zone, paint, out);
  if (!history) return;
  out << "\n" << paint(kBold, "History (earlier boots, faults that healed; not the fault at capture)") << "\n";
  for (const auto& f : r.findings) {
    if (f.tense == Tense::kHistory) RenderFinding(f, nullptr, zone, r.node_zone, paint, out);
  }
}

void RenderMilestones(const Report& r, const DisplayZone& zone, const Painter& paint, std::ostringstream& out) {
  out << "\n" << paint(kBold, "Boot timeline (milestones, " + zone.name() + "; offset since the boot started)") << "\n";
  if (r.milestones.empty()) out << "  no timestamped milestones in the bundle\n";
  std::optional<int64_t> current_boot;
  bool first = true;
  for (const auto& m : r.milestones) {
    if (first || m.boot_offset != current_boot) {
      out << "  boot " << (m.boot_offset ? std::to_string(*m.boot_offset) : std::string("?")) << "\n";
      current_boot = m.boot_offset;
      first = false;
    }
    std::string offset = m.since_boot_ns ? FormatOffset(*m.since_boot_ns) : "";
    std::string message = m.message.size() > 90 ? m.message.substr(0, 87) + "..." : m.message;
    out << "    " << zone.Format(m.time_ns) << "  " << Pad(offset, 12) << " "
        << Pad(std::string(m.milestone_name()), 31) << message << "\n";
  }
  if (r.node_events_since_ns) out << "  " << NodeEventsWindow(*r.node_events_since_ns, zone) << "\n";
  if (r.plugin_rollout) out << "  " << RolloutLine(*r.plugin_rollout) << "\n";
  if (r.intervals.empty()) return;
  out << "\n" << paint(kBold, "Intervals") << "\n";
  for (const auto& i : r.intervals) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", i.seconds);
    out << "  boot " << Pad(std::to_string(i.boot_offset), 4) << Pad(i.name, 44) << seconds << "\n";
  }
}

// Imported inputs: what became of each file, and what that kind of capture
// never holds, as advice for the next one.
void RenderInputKind(const Report& r, std::ostringstream& out) {
  if (r.input_source.empty() && r.cannot_show.empty()) return;
  out << "  input: " << r.input_kind << " '" << r.input_source << "', imported\n";
  for (const auto& f : r.input_files) out << "    " << InputFileLine(f) << "\n";
  if (!r.cannot_show.empty()) {
    out << "  this kind of input cannot show (capture with gpuforensics collect next time, or by hand):\n";
    for (const auto& name : r.cannot_show) out << "    " << name << ": " << CaptureCommand(name) << "\n";
  }
  for (const auto& command : r.capture_next) out << "  to capture next time: " << command << "\n";
}

// What the input lacks for the checks that could not run or stay unconfirmed.
void RenderCannotTell(const Report& r, const Painter& paint, std::ostringstream& out) {
  if (r.cannot_tell.empty()) return;
  out << "\n" << paint(kBold, "Cannot tell without (captures this input does not hold)") << "\n";
  for (const auto& c : r.cannot_tell) out << "  - " << CannotTellLine(c) << "\n      capture: " << c.command << "\n";
}

void RenderNotes(const std::vector<ArtifactNote>& notes, std::ostringstream& out) {
  for (const auto& n : notes) out << "  " << n.artifact << ": " << n.note << "\n";
}

void RenderCoverage(const Report& r, const Painter& paint, std::ostringstream& out) {
  std::string line = "Coverage: " + std::to_string(r.artifacts_total) + " artifacts, " +
                     std::to_string(r.artifacts_ok) + " ok, " + std::to_string(r.artifacts_failed) + " failed";
  if (r.artifacts_timed_out > 0) line += " (" + std::to_string(r.artifacts_timed_out) + " timed out)";
  line += ", " + std::to_string(r.artifacts_skipped) + " skipped";
  if (!r.empty.empty()) line += ", " + std::to_string(r.empty.size()) + " empty";
  if (!r.truncated.empty()) line += ", " + std::to_string(r.truncated.size()) + " truncated";
  if (r.parse_warnings > 0) line += ", " + std::to_string(r.parse_warnings) + " unparsed lines";
  if (r.timeline_warnings > 0) line += ", " + std::to_string(r.timeline_warnings) + " guessed times";
  out << "\n" << paint(kBold, line) << "\n";
  RenderInputKind(r, out);
  for (const auto& c : r.coverage) out << "  " << c << "\n";
  RenderNotes(r.empty, out);
  RenderNotes(r.truncated, out);
  RenderNotes(r.unparsed, out);
  for (const auto& run : r.rule_runs) {
    if (RuleNotEvaluated(run)) {
      out << "  rule " << run.rule_id << ": " << Name(run.outcome) << " (" << run.reason << ")\n";
    }
  }
}

}  // namespace

std::string FormatOffset(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3fs", static_cast<double>(ns) / 1e9);
  return text;
}

std::string RenderText(const Report& r, const DisplayZone& zone, const TextStyle& style) {
  Painter paint(style);
  std::ostringstream out;
  RenderHeader(r, zone, paint, out);
  RenderFirstScreen(r, zone, paint, out);
  RenderBundle(r, paint, out);
  RenderChainSteps(r, paint, out);
  RenderFindings(r, zone, paint, out);
  RenderCannotTell(r, paint, out);
  RenderMilestones(r, zone, paint, out);
  RenderCoverage(r, paint, out);
  return WrapToWidth(out.str(), style.width);
}

}  // namespace gpuf
