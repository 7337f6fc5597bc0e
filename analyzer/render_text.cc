#include "analyzer/render_text.h"

#include <cstdio>
#include <sstream>

namespace gpuf {

namespace {

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return text;
}

void RenderVerdict(const Report& r, std::ostringstream& out) {
  out << "\nGPU chain verdict\n";
  int number = 0;
  for (const auto& step : r.verdict) {
    std::string status = StepStatusName(step.status);
    if (step.status == StepStatus::kFailed) status = Upper(status);
    out << "  " << Pad(std::to_string(++number), 3) << Pad(step.name, 37) << Pad(status, 9);
    out << (step.detail.empty() ? step.missing : step.detail);
    if (!step.detail.empty() && !step.missing.empty()) out << "; " << step.missing;
    out << "\n";
  }
}

std::string EvidenceTime(int64_t ns, const DisplayZone& zone) {
  std::string shown = zone.Format(ns);
  if (zone.name() == "UTC") return shown;
  return shown + " (" + DisplayZone().Format(ns).substr(11) + ")";
}

void RenderFinding(const Finding& f, const DisplayZone& zone, std::ostringstream& out) {
  out << "\n  [" << Upper(f.severity) << ", " << f.confidence << "] " << f.rule_id << ": " << f.title << "\n";
  out << "    " << f.summary << "\n";
  if (!f.evidence.empty()) out << "    evidence:\n";
  for (const auto& e : f.evidence) {
    out << "      ";
    if (!e.artifact.empty()) out << e.artifact << (e.line ? ":" + std::to_string(*e.line) : "") << "  ";
    if (e.time_ns) out << EvidenceTime(*e.time_ns, zone) << "  ";
    out << (e.text.size() > 160 ? e.text.substr(0, 157) + "..." : e.text) << "\n";
  }
  if (!f.missing_evidence.empty()) out << "    would confirm it, not in the bundle:\n";
  for (const auto& m : f.missing_evidence) out << "      - " << m << "\n";
  if (!f.remediation.empty()) out << "    next steps, safest first:\n";
  int step = 0;
  for (const auto& r : f.remediation) out << "      " << ++step << ". " << r << "\n";
  for (const auto& ref : f.references) out << "    see: " << ref.url << (ref.title.empty() ? "" : " (" + ref.title + ")") << "\n";
}

void RenderFindings(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  int not_evaluated = 0;
  for (const auto& run : r.rule_runs) not_evaluated += run.outcome == "skipped" || run.outcome == "error";
  out << "\nFindings (" << r.findings.size() << " of " << r.rule_runs.size() << " known issues checked)\n";
  if (r.findings.empty()) {
    out << "  No known issue recognized.";
    if (not_evaluated > 0) {
      out << " " << not_evaluated << " could not be checked for lack of evidence (see Coverage):"
          << " this is not a statement that the node is healthy.";
    }
    out << "\n";
  }
  for (const auto& f : r.findings) RenderFinding(f, zone, out);
}

void RenderMilestones(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "\nBoot timeline (milestones, " << zone.name() << "; offset since the boot started)\n";
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
    out << "    " << zone.Format(m.time_ns) << "  " << Pad(offset, 12) << " " << Pad(m.milestone, 31) << message << "\n";
  }
  if (r.intervals.empty()) return;
  out << "\nIntervals\n";
  for (const auto& i : r.intervals) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f s", i.seconds);
    out << "  boot " << Pad(std::to_string(i.boot_offset), 4) << Pad(i.name, 44) << seconds << "\n";
  }
}

// Imported inputs: what that kind of capture never holds, as advice for the next one.
void RenderInputKind(const Report& r, std::ostringstream& out) {
  if (r.input_source.empty() && r.cannot_show.empty()) return;
  out << "  input: " << r.input_kind << " '" << r.input_source << "', imported\n";
  if (r.cannot_show.empty()) return;
  out << "  this kind of input cannot show (capture with gpuforensics collect next time):\n   ";
  for (const auto& name : r.cannot_show) out << " " << name;
  out << "\n";
}

void RenderCoverage(const Report& r, std::ostringstream& out) {
  out << "\nCoverage: " << r.artifacts_total << " artifacts, " << r.artifacts_ok << " ok, " << r.artifacts_failed
      << " failed, " << r.artifacts_skipped << " skipped";
  if (r.parse_warnings > 0) out << ", " << r.parse_warnings << " unparsed lines";
  if (r.timeline_warnings > 0) out << ", " << r.timeline_warnings << " guessed times";
  out << "\n";
  RenderInputKind(r, out);
  for (const auto& c : r.coverage) out << "  " << c << "\n";
  for (const auto& run : r.rule_runs) {
    if (run.outcome == "skipped" || run.outcome == "error") {
      out << "  rule " << run.rule_id << ": " << run.outcome << " (" << run.reason << ")\n";
    }
  }
}

}  // namespace

std::string FormatOffset(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.3fs", static_cast<double>(ns) / 1e9);
  return text;
}

std::string RenderText(const Report& r, const DisplayZone& zone) {
  std::ostringstream out;
  out << "gpuforensics report: " << r.bundle_path << "\n";
  out << "node " << (r.node.empty() ? "(unknown)" : r.node);
  if (!r.node_zone.empty()) out << " (zone " << r.node_zone << ")";
  out << ", collected " << zone.Format(r.collected_at_ns) << " by gpuforensics " << r.tool_version;
  out << (r.complete ? ", complete" : ", INCOMPLETE (" + r.incomplete_reason + ")") << "\n";
  out << "integrity: " << (r.integrity_issues.empty() ? "every member matches the manifest" : "PROBLEMS") << "\n";
  for (const auto& issue : r.integrity_issues) out << "  " << issue << "\n";
  RenderVerdict(r, out);
  RenderFindings(r, zone, out);
  RenderMilestones(r, zone, out);
  RenderCoverage(r, out);
  return out.str();
}

}  // namespace gpuf
