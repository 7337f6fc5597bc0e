#include "analyzer/render/render_markdown.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "analyzer/render/render_text.h"
#include "analyzer/render/report_lines.h"

namespace gpuf {

namespace {

std::string Code(const std::string& text) {
  // A code span's fence must be longer than any backtick run inside it.
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  std::string inner = text;
  std::replace(inner.begin(), inner.end(), '\n', ' ');
  std::replace(inner.begin(), inner.end(), '|', '/');  // a pipe ends a table cell even inside a code span
  return fence + (inner.empty() || inner.front() == '`' ? " " : "") + inner +
         (inner.empty() || inner.back() == '`' ? " " : "") + fence;
}

std::string Fence(const std::vector<std::string>& lines) {
  size_t longest = 2, run = 0;
  for (const auto& line : lines) {
    for (char c : line) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  return std::string(longest + 1, '`');
}

void RenderHeader(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "# GPU node report: " << MarkdownText(r.node.empty() ? "(unknown node)" : r.node) << "\n\n";
  out << "| | |\n|---|---|\n";
  out << "| Node | " << Code(r.node.empty() ? "(unknown)" : r.node)
      << (r.node_zone.empty() ? "" : " (zone " + MarkdownText(r.node_zone) + ")") << " |\n";
  if (!r.node_identity.empty()) out << "| Node identity | " << MarkdownText(r.node_identity) << " |\n";
  out << "| Collected | " << DisplayZone().Format(r.collected_at_ns) << " "
      << MarkdownText(CapturedBy(r))
      << (r.complete ? ", complete" : ", **incomplete** (" + MarkdownText(r.incomplete_reason) + ")") << " |\n";
  out << "| Bundle | " << Code(r.bundle_path);
  if (!r.bundle_id.empty()) {
    out << "; " << r.bundle_id << "; integrity: "
        << (r.integrity_issues.empty() ? "every member matches the manifest"
                                       : "**" + std::to_string(r.integrity_issues.size()) + " problems**");
  }
  out << " |\n";
  out << "| GPU chain | **" << MarkdownText(ChainVerdictLine(r)) << "** |\n";
  if (r.detection) out << "| Detection | " << MarkdownText(DetectionLine(*r.detection, zone)) << " |\n";
  std::string next = NextActionLine(r);
  if (!next.empty()) {
    out << "| Next action | " << MarkdownText(next)
        << (r.next_action.command.empty() ? "" : "<br>" + Code(r.next_action.command)) << " |\n";
  }
  out << "| Findings | " << MarkdownText(FindingsLine(r)) << " |\n";
  for (const auto& issue : r.integrity_issues) out << "\n- integrity: " << MarkdownText(issue);
  if (!r.integrity_issues.empty()) out << "\n";
}

// The root cause, what hangs under it, what competes with it and what was
// ruled out: the differential in a few lines.
void RenderDiagnosis(const Report& r, std::ostringstream& out) {
  out << "\n## Diagnosis\n\n";
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  if (!leader) out << "No current known issue recognized.\n";
  for (const auto& e : r.diagnosis.entries) {
    if (e.group == 0) continue;
    const Finding* f = FindFinding(r, e.rule_id);
    out << (e.rank == 1 ? "- " : "  - ") << "**" << MarkdownText(PlaceWords(e)) << "**: " << Code(e.rule_id) << " ("
        << MarkdownText(Word(f->severity) + ", " + Word(f->confidence)) << ") - " << MarkdownText(f->summary) << "\n";
  }
  if (!r.diagnosis.decider.empty()) out << "\nTo decide between the competing causes, " << MarkdownText(r.diagnosis.decider) << ".\n";
  if (!r.ruled_out.empty()) out << "\nConsidered and ruled out:\n\n";
  for (const auto& f : r.ruled_out) out << "- " << Code(f.rule_id) << " - " << MarkdownText(f.tense_reason) << "\n";
  bool history = false;
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) continue;
    if (!history) out << "\nHistory (earlier boots, faults that healed; not the fault at capture):\n\n";
    history = true;
    out << "- " << Code(f.rule_id) << " - " << MarkdownText(f.summary) << "\n";
  }
}

void RenderVersions(const Report& r, std::ostringstream& out) {
  out << "\n## Versions\n\n";
  if (r.versions.empty()) {
    out << "No component version was captured.\n";
    return;
  }
  out << "| Component | Version | Read from |\n|---|---|---|\n";
  for (const auto& v : r.versions) {
    out << "| " << MarkdownText(v.component) << " | " << Code(v.version) << " | " << Code(v.artifact) << " |\n";
  }
}

void RenderChain(const Report& r, std::ostringstream& out) {
  out << "\n## GPU chain verdict\n\n**" << MarkdownText(ChainVerdictLine(r)) << "**\n\n";
  out << "| # | Step | Status | What was seen |\n|---|---|---|---|\n";
  int number = 0;
  for (const auto& step : r.verdict) {
    std::string status = Word(step.status);
    if (step.status == StepStatus::kFailed) status = "**FAILED**";
    std::string seen = step.detail.empty() ? step.missing : step.detail;
    if (!step.detail.empty() && !step.missing.empty()) seen += "; " + step.missing;
    out << "| " << ++number << " | " << MarkdownText(step.name) << " | " << status << " | " << MarkdownText(seen)
        << " |\n";
  }
}

void RenderEvidence(const std::vector<FindingEvidence>& rows, const std::string& title, const DisplayZone& zone,
                    const std::string& node_zone, std::ostringstream& out) {
  if (rows.empty()) return;
  std::vector<std::string> lines;
  for (const auto& e : rows) {
    std::string line;
    if (!e.artifact.empty()) line += e.artifact + (e.line ? ":" + std::to_string(*e.line) : "") + "\n    ";
    if (e.time_ns) line += LocalAndUtc(*e.time_ns, zone, node_zone) + "  ";
    std::string text = e.text;
    std::replace(text.begin(), text.end(), '\n', ' ');
    lines.push_back(line + text);
  }
  std::string fence = Fence(lines);
  out << "\n" << title << "\n\n" << fence << "text\n";
  for (const auto& line : lines) out << line << "\n";
  out << fence << "\n";
}

void RenderFinding(const Finding& f, int number, const DiagnosisEntry* place, const DisplayZone& zone,
                   const std::string& node_zone, std::ostringstream& out) {
  out << "\n### " << number << ". " << MarkdownText(f.title) << "\n\n";
  out << "Rule " << Code(f.rule_id) << (place ? ", " + MarkdownText(PlaceWords(*place)) : "") << ", severity **"
      << MarkdownText(Word(f.severity)) << "**, confidence **" << MarkdownText(Word(f.confidence)) << "**"
      << (ConfidenceLine(f).empty() ? "" : " (" + MarkdownText(ConfidenceLine(f)) + ")") << ".\n\n"
      << MarkdownText(f.summary) << "\n";
  if (f.tense != Tense::kCurrent) out << "\n" << MarkdownText("(" + f.tense_reason + ")") << "\n";
  out << "\nCatalog: " << MarkdownText(f.catalog) << "\n";
  std::vector<FindingEvidence> events, exposure;
  for (const auto& e : f.evidence) (e.shows == "event" ? events : exposure).push_back(e);
  RenderEvidence(events, f.tense == Tense::kRuledOut ? "Evidence it rested on:" : "Evidence:", zone, node_zone, out);
  RenderEvidence(exposure, "Context and preconditions (not the event itself):", zone, node_zone, out);
  if (!f.against.empty()) out << "\nEvidence against, checked:\n\n";
  for (const auto& a : f.against) {
    out << "- " << MarkdownText(AgainstStateWords(a)) << ": " << MarkdownText(a.text) << "\n";
    for (const auto& e : a.evidence) {
      out << "  - " << Code((e.artifact.empty() ? "" : e.artifact + (e.line ? ":" + std::to_string(*e.line) : "") + " ") + e.text)
          << "\n";
    }
  }
  if (f.tense == Tense::kRuledOut) return;
  if (!f.missing_evidence.empty()) out << "\nWould confirm it, not in the bundle:\n\n";
  for (const auto& m : f.missing_evidence) out << "- " << MarkdownText(m) << "\n";
  if (!f.remediation.empty()) out << "\nNext steps, safest first:\n\n";
  int step = 0;
  for (const auto& s : f.remediation) out << ++step << ". " << MarkdownText(s) << "\n";
  if (!f.references.empty()) out << "\nReferences:\n\n";
  for (const auto& ref : f.references) {
    out << "- <" << MarkdownText(ref.url) << ">" << (ref.title.empty() ? "" : " " + MarkdownText(ref.title)) << "\n";
  }
}

void RenderFindings(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  std::string line = FindingsLine(r);
  out << "\n## Findings\n\n" << MarkdownText(line) << (line.back() == '.' ? "" : ".") << "\n";
  int number = 0;
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) RenderFinding(f, ++number, r.diagnosis.Find(f.rule_id), zone, r.node_zone, out);
  }
  if (!r.ruled_out.empty()) out << "\n## Considered and ruled out\n";
  for (const auto& f : r.ruled_out) RenderFinding(f, ++number, nullptr, zone, r.node_zone, out);
  bool history = false;
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) continue;
    if (!history) out << "\n## History\n\nEarlier boots and faults that healed; not the fault at capture.\n";
    history = true;
    RenderFinding(f, ++number, nullptr, zone, r.node_zone, out);
  }
}

void RenderTimeline(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "\n## Boot timeline\n\nMilestones in " << MarkdownText(zone.name())
      << "; the offset is the time since that boot started.\n";
  if (r.milestones.empty()) out << "\nNo timestamped milestone in the bundle.\n";
  std::optional<int64_t> current_boot;
  bool first = true;
  for (const auto& m : r.milestones) {
    if (first || m.boot_offset != current_boot) {
      out << "\n### Boot " << (m.boot_offset ? std::to_string(*m.boot_offset) : std::string("unknown"))
          << (m.boot_offset == 0 ? " (at capture)" : "") << "\n\n";
      out << "| Time | Since boot | Milestone | Message |\n|---|---|---|---|\n";
      current_boot = m.boot_offset;
      first = false;
    }
    std::string message = m.message.size() > 120 ? m.message.substr(0, 117) + "..." : m.message;
    out << "| " << zone.Format(m.time_ns) << " | " << (m.since_boot_ns ? FormatOffset(*m.since_boot_ns) : "") << " | "
        << MarkdownText(std::string(m.milestone_name())) << " | " << MarkdownText(message) << " |\n";
  }
  if (r.node_events_since_ns) out << "\n" << MarkdownText(NodeEventsWindow(*r.node_events_since_ns, zone)) << "\n";
  if (r.plugin_rollout) out << "\n" << MarkdownText(RolloutLine(*r.plugin_rollout)) << "\n";
  if (r.intervals.empty()) return;
  out << "\n### Intervals\n\n| Boot | Interval | Seconds |\n|---|---|---|\n";
  for (const auto& i : r.intervals) {
    out << "| " << i.boot_offset << " | " << MarkdownText(i.name) << " | " << FormatSeconds(i.seconds) << " |\n";
  }
}

void RenderNoteList(const std::vector<ArtifactNote>& notes, std::ostringstream& out) {
  for (const auto& n : notes) out << "- " << Code(n.artifact) << ": " << MarkdownText(n.note) << "\n";
}

void RenderCoverage(const Report& r, std::ostringstream& out) {
  out << "\n## Coverage\n\n";
  out << r.artifacts_total << " artifacts: " << r.artifacts_ok << " ok, " << r.artifacts_failed << " failed ("
      << r.artifacts_timed_out << " timed out), " << r.artifacts_skipped << " skipped, " << r.empty.size() << " empty, "
      << r.truncated.size() << " truncated; " << r.parse_warnings << " unparsed lines, " << r.timeline_warnings
      << " guessed times.\n\n";
  for (const auto& c : r.coverage) out << "- " << MarkdownText(c) << "\n";
  RenderNoteList(r.empty, out);
  RenderNoteList(r.truncated, out);
  RenderNoteList(r.unparsed, out);
  // Imported inputs: every file, and the captures that would decide what could not be told.
  if (!r.input_files.empty()) out << "\nFiles of the input:\n\n";
  for (const auto& f : r.input_files) out << "- " << MarkdownText(InputFileLine(f)) << "\n";
  if (!r.cannot_tell.empty()) out << "\nCannot tell without:\n\n";
  for (const auto& c : r.cannot_tell) {
    out << "- " << MarkdownText(CannotTellLine(c)) << " (capture: " << MarkdownText(c.command) << ")\n";
  }
  if (RulesNotEvaluated(r) == 0) return;
  out << "\nRules not evaluated (no finding from them says nothing about the node):\n\n";
  for (const auto& run : r.rule_runs) {
    if (RuleNotEvaluated(run)) {
      out << "- " << Code(run.rule_id) << ": " << MarkdownText(Word(run.outcome)) << " (" << MarkdownText(run.reason)
          << ")\n";
    }
  }
}

}  // namespace

std::string MarkdownText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  auto word = [&](size_t i) { return i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0); };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '_' && i > 0 && word(i - 1) && word(i + 1)) {
      out += c;  // inside a word an underscore never starts emphasis
    } else if (std::string_view("\\`*_[]<>|#!&~").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string RenderMarkdown(const Report& r, const DisplayZone& zone) {
  std::ostringstream out;
  RenderHeader(r, zone, out);
  RenderDiagnosis(r, out);
  RenderChain(r, out);
  RenderFindings(r, zone, out);
  RenderVersions(r, out);
  RenderTimeline(r, zone, out);
  RenderCoverage(r, out);
  out << "\n---\nGenerated by `gpuforensics analyze --format markdown` from the bundle above.\n";
  return out.str();
}

}  // namespace gpuf
