#include "analyzer/render/render_html.h"

#include <sstream>

#include "analyzer/render/html_escape.h"
#include "analyzer/render/render_text.h"
#include "analyzer/render/report_lines.h"
#include "analyzer/render/swimlane_svg.h"

namespace gpuf {

namespace {

// Only the boot at capture and the one before: older boots rarely matter
// and would bury the picture.
constexpr size_t kBootsDrawn = 2;

constexpr const char* kStyle = R"css(
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg-soft: #f6f8fa;
        --bad: #d1242f; --ok: #1a7f37; --warn: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 6px; }
.meta { color: var(--muted); margin: 0; }
.banner { margin: 16px 0 0; padding: 12px 16px; border-radius: 8px; font-size: 16px; font-weight: 600;
          border: 1px solid; }
.banner.bad { background: #ffebe9; border-color: #ffcecb; color: #82071e; }
.banner.ok { background: #dafbe1; border-color: #aceebb; color: #116329; }
.banner.unknown { background: #fff8c5; border-color: #f5e0a0; color: #7d4e00; }
.banner small { display: block; font-weight: 400; font-size: 14px; color: var(--fg); }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--bg-soft); font-weight: 600; }
td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.mono { overflow-wrap: anywhere; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.pill.failed, .pill.critical, .pill.high { background: #ffebe9; color: var(--bad); }
.pill.ok { background: #dafbe1; color: var(--ok); }
.pill.unknown, .pill.medium { background: #fff8c5; color: var(--warn); }
.pill.low, .pill.info, .pill.conf { background: var(--bg-soft); color: var(--muted); }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--muted); border-radius: 6px;
           padding: 12px 16px; margin: 12px 0; }
.finding.critical, .finding.high { border-left-color: var(--bad); }
.finding.medium { border-left-color: var(--warn); }
.finding p { margin: 6px 0; }
.finding h4 { margin: 12px 0 4px; font-size: 13px; color: var(--muted); }
pre.evidence { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
               overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
pre.evidence .src { color: var(--muted); }
.figure { border: 1px solid var(--line); border-radius: 8px; padding: 8px 0 0; margin: 12px 0; overflow-x: auto; }
.legend { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
.legend .dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin: 0 4px 0 12px;
               vertical-align: -1px; }
ul.plain { padding-left: 20px; margin: 6px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
.diagnosis { margin: 12px 0 0; padding: 12px 16px; border: 1px solid var(--line); border-radius: 8px; }
.diagnosis p { margin: 4px 0; }
.diagnosis .lead { font-size: 16px; font-weight: 600; }
.diagnosis ul { margin: 4px 0; padding-left: 20px; }
.next { margin: 10px 0 0; padding: 10px 14px; border-radius: 8px; background: #ddf4ff; border: 1px solid #b6e3ff; }
.next pre { margin: 6px 0 0; padding: 6px 10px; background: #ffffff; border: 1px solid #b6e3ff; border-radius: 6px;
            white-space: pre-wrap; overflow-wrap: anywhere; }
details { margin: 16px 0; }
details > summary { cursor: pointer; font-size: 17px; font-weight: 600; padding-bottom: 4px;
                    border-bottom: 1px solid var(--line); }
ul.against li.held { color: var(--bad); }
@media print { main { max-width: none; padding: 0; } .figure, .finding, tr { break-inside: avoid; } }
svg.swimlanes { display: block; font-family: system-ui, "DejaVu Sans", sans-serif; }
svg .lane-bg { fill: #ffffff; }
svg .lane-bg.odd { fill: #f6f8fa; }
svg .lane-title { font-size: 12px; font-weight: 600; fill: var(--fg); }
svg .lane-axis { stroke: #d1d9e0; stroke-width: 1; }
svg .life { fill: #54aeff; fill-opacity: 0.35; }
svg .grid { stroke: #d1d9e0; stroke-dasharray: 2 4; }
svg .tick, svg .axis-title, svg .note { font-size: 11px; fill: var(--muted); }
svg .svg-title { font-size: 13px; font-weight: 600; fill: var(--fg); }
svg .mark-label { font-size: 11px; fill: var(--fg); paint-order: stroke; stroke: #ffffff; stroke-width: 3px;
                  stroke-linejoin: round; }
svg .mark-label.bad { fill: var(--bad); font-weight: 600; }
svg .leader { stroke: #8c959f; stroke-width: 1; }
svg .empty { font-size: 11px; fill: #8c959f; font-style: italic; }
svg .gap { fill: #fb8f44; fill-opacity: 0.28; }
svg .gap-edge { stroke: #bc4c00; stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .gap-bracket { fill: none; stroke: #bc4c00; stroke-width: 1.5; }
svg .break-fill { fill: #ffffff; }
svg .break-edge { fill: none; stroke: #8c959f; stroke-width: 1; }
svg .break-label { font-size: 11px; font-weight: 600; fill: var(--muted); }
svg .gap-label { font-size: 12px; font-weight: 700; fill: #bc4c00; paint-order: stroke; stroke: #ffffff;
                 stroke-width: 4px; stroke-linejoin: round; }
)css";

std::string E(const std::string& text) { return HtmlEscape(text); }

const char* VerdictClass(const Report& r) {
  bool unknown = false;
  for (const auto& step : r.verdict) {
    if (step.status == StepStatus::kFailed) return "bad";
    // Metrics and alerting are outside the node and always unknown; they do not make a node doubtful.
    unknown = unknown || (step.status == StepStatus::kUnknown && &step != &r.verdict.back());
  }
  return unknown || r.verdict.empty() ? "unknown" : "ok";
}

void RenderHeader(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "<header>\n<h1>GPU node report: " << E(r.node.empty() ? "(unknown node)" : r.node) << "</h1>\n";
  out << "<p class=\"meta\">collected " << E(zone.Format(r.collected_at_ns)) << " " << E(CapturedBy(r))
      << (r.complete ? ", complete" : ", <strong>incomplete</strong> (" + E(r.incomplete_reason) + ")")
      << (r.node_zone.empty() ? "" : " &middot; node zone " + E(r.node_zone)) << " &middot; bundle <code>"
      << E(r.bundle_path) << "</code>";
  if (!r.bundle_id.empty()) {
    out << " " << E(r.bundle_id) << " &middot; integrity: "
        << (r.integrity_issues.empty() ? "every member matches the manifest"
                                       : "<strong>" + std::to_string(r.integrity_issues.size()) + " problems</strong>");
  }
  out << "</p>\n";
  out << "<div class=\"banner " << VerdictClass(r) << "\" id=\"verdict\">GPU chain: " << E(ChainVerdictLine(r))
      << "<small>" << E(FindingsLine(r)) << "</small></div>\n";
  if (r.detection)
    out << "<p id=\"detection\"><strong>Detection:</strong> " << E(DetectionLine(*r.detection, zone)) << "</p>\n";
  if (!r.integrity_issues.empty()) {
    out << "<ul class=\"plain\">";
    for (const auto& issue : r.integrity_issues) out << "<li>" << E(issue) << "</li>";
    out << "</ul>\n";
  }
  out << "</header>\n";
}

std::string Pills(const Finding& f) {
  return "<span class=\"pill " + E(Word(f.severity)) + "\">" + E(Word(f.severity)) +
         "</span> <span class=\"pill conf\">" + E(Word(f.confidence)) + "</span>";
}

// Above the fold: the root cause with its confidence, what hangs under it,
// what was ruled out, and the single safest next action with its command.
void RenderDiagnosis(const Report& r, std::ostringstream& out) {
  out << "<section class=\"diagnosis\" id=\"diagnosis\">\n";
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  if (const Finding* f = leader ? FindFinding(r, leader->rule_id) : nullptr) {
    out << "<p class=\"lead\" id=\"root-cause\">" << (leader->place == "root_cause" ? "Root cause" : "Leading finding")
        << ": " << Pills(*f) << " <a href=\"#finding-" << E(f->rule_id) << "\"><code>" << E(f->rule_id)
        << "</code></a> " << E(f->title) << "</p>\n<p>" << E(f->summary) << "</p>\n";
    std::string under;
    for (const auto& e : r.diagnosis.entries) {
      if (e.group != 1 || e.rank == 1) continue;
      const Finding* other = FindFinding(r, e.rule_id);
      under += "<li>" + E(PlaceWords(e)) + ": " + Pills(*other) + " <a href=\"#finding-" + E(e.rule_id) +
               "\"><code>" + E(e.rule_id) + "</code></a></li>";
    }
    if (!r.diagnosis.decider.empty()) under += "<li>to decide between them, " + E(r.diagnosis.decider) + "</li>";
    if (!under.empty()) out << "<ul>" << under << "</ul>\n";
  } else {
    out << "<p class=\"lead\" id=\"root-cause\">Root cause: no current known issue recognized</p>\n";
  }
  for (const auto& f : r.ruled_out) {
    out << "<p>Considered and ruled out: <code>" << E(f.rule_id) << "</code> &mdash; " << E(f.tense_reason) << "</p>\n";
  }
  std::string next = NextActionLine(r);
  if (!next.empty()) {
    out << "<div class=\"next\" id=\"next-action\"><strong>Next action:</strong> " << E(next);
    if (!r.next_action.command.empty()) out << "<pre><code>" << E(r.next_action.command) << "</code></pre>";
    out << "</div>\n";
  }
  out << "</section>\n";
}

void RenderSwimlanes(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "<section id=\"swimlanes\">\n<h2>Boot timeline</h2>\n";
  std::vector<int64_t> boots = SwimlaneBoots(r.milestones);
  if (boots.empty()) out << "<p>No milestone of the GPU chain could be placed in time.</p>\n";
  for (size_t i = 0; i < boots.size() && i < kBootsDrawn; ++i) {
    if (i == 1) out << "<details id=\"earlier-boots\"><summary>Earlier boot</summary>\n";
    out << "<div class=\"figure\">\n" << RenderSwimlaneSvg(r.milestones, r.intervals, boots[i], zone) << "</div>\n";
    if (i == 1) out << "</details>\n";
  }
  if (!boots.empty()) {
    out << "<p class=\"legend\">Hover a mark for its time and log line."
        << "<span class=\"dot\" style=\"background:#1a7f37\"></span>up"
        << "<span class=\"dot\" style=\"background:#d1242f\"></span>failure"
        << "<span class=\"dot\" style=\"background:#6e7781\"></span>other"
        << "<span class=\"dot\" style=\"background:#fb8f44\"></span>driver ready to device-plugin start</p>\n";
  }
  if (r.node_events_since_ns) out << "<p>" << HtmlEscape(NodeEventsWindow(*r.node_events_since_ns, zone)) << "</p>\n";
  if (r.plugin_rollout) out << "<p>" << HtmlEscape(RolloutLine(*r.plugin_rollout)) << "</p>\n";
  out << "</section>\n";
}

void RenderChain(const Report& r, std::ostringstream& out) {
  out << "<section id=\"chain\">\n<h2>GPU chain verdict</h2>\n<table>\n"
      << "<tr><th>#</th><th>Step</th><th>Status</th><th>What was seen</th><th>Evidence</th></tr>\n";
  int number = 0;
  for (const auto& step : r.verdict) {
    std::string seen = step.detail.empty() ? step.missing : step.detail;
    if (!step.detail.empty() && !step.missing.empty()) seen += "; " + step.missing;
    std::string status = Word(step.status);
    out << "<tr><td class=\"num\">" << ++number << "</td><td>" << E(step.name) << "</td><td><span class=\"pill "
        << status << "\">" << (step.status == StepStatus::kFailed ? "FAILED" : status) << "</span></td><td>" << E(seen)
        << "</td><td class=\"mono\">" << E(step.evidence) << "</td></tr>\n";
  }
  out << "</table>\n</section>\n";
}

void RenderEvidence(const std::vector<FindingEvidence>& rows, const DisplayZone& zone, const std::string& node_zone,
                    std::ostringstream& out) {
  out << "<pre class=\"evidence\">";
  for (const auto& e : rows) {
    if (!e.artifact.empty()) {
      out << "<span class=\"src\">" << E(e.artifact + (e.line ? ":" + std::to_string(*e.line) : "")) << "</span>\n";
    }
    out << "  ";
    if (e.time_ns) out << E(LocalAndUtc(*e.time_ns, zone, node_zone)) << "  ";
    out << E(e.text) << "\n";
  }
  out << "</pre>\n";
}

void RenderFinding(const Finding& f, const DiagnosisEntry* place, const DisplayZone& zone,
                   const std::string& node_zone, std::ostringstream& out) {
  out << "<article class=\"finding " << E(Word(f.severity)) << "\" id=\"finding-" << E(f.rule_id) << "\">\n";
  out << "<h3>" << Pills(f) << " " << E(f.title) << "</h3>\n";
  out << "<p class=\"meta\">rule <code>" << E(f.rule_id) << "</code>"
      << (place ? " &middot; " + E(PlaceWords(*place)) : "") << " &middot; catalog: " << E(f.catalog)
      << (ConfidenceLine(f).empty() ? "" : " &middot; confidence: " + E(ConfidenceLine(f))) << "</p>\n<p>"
      << E(f.summary) << "</p>\n";
  if (f.tense != Tense::kCurrent) out << "<p class=\"meta\">" << E(f.tense_reason) << "</p>\n";
  std::vector<FindingEvidence> events, exposure;
  for (const auto& e : f.evidence) (e.shows == "event" ? events : exposure).push_back(e);
  if (!events.empty()) {
    out << "<h4>" << (f.tense == Tense::kRuledOut ? "Evidence it rested on" : "Evidence") << "</h4>\n";
    RenderEvidence(events, zone, node_zone, out);
  }
  if (!exposure.empty()) {
    out << "<h4>Context and preconditions (not the event itself)</h4>\n";
    RenderEvidence(exposure, zone, node_zone, out);
  }
  if (!f.against.empty()) {
    out << "<h4>Evidence against, checked</h4>\n<ul class=\"plain against\">";
    for (const auto& a : f.against) {
      out << "<li" << (a.state == "held" ? " class=\"held\"" : "") << ">" << E(AgainstStateWords(a)) << ": "
          << E(a.text);
      if (!a.evidence.empty()) RenderEvidence(a.evidence, zone, node_zone, out);
      out << "</li>";
    }
    out << "</ul>\n";
  }
  if (f.tense == Tense::kRuledOut) {
    out << "</article>\n";
    return;
  }
  if (!f.missing_evidence.empty()) {
    out << "<h4>Would confirm it, not in the bundle</h4>\n<ul class=\"plain\">";
    for (const auto& m : f.missing_evidence) out << "<li>" << E(m) << "</li>";
    out << "</ul>\n";
  }
  if (!f.remediation.empty()) {
    out << "<h4>Next steps, safest first</h4>\n<ol>";
    for (const auto& s : f.remediation) out << "<li>" << E(s) << "</li>";
    out << "</ol>\n";
  }
  if (!f.references.empty()) {
    // Links the reader may follow; the page itself loads nothing (its CSP).
    out << "<h4>References</h4>\n<ul class=\"plain\">";
    for (const auto& ref : f.references) {
      out << "<li><a href=\"" << E(ref.url) << "\" rel=\"noreferrer\">" << E(ref.title.empty() ? ref.url : ref.title)
          << "</a></li>";
    }
    out << "</ul>\n";
  }
  out << "</article>\n";
}

void RenderFindings(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  std::string line = FindingsLine(r);
  out << "<section id=\"findings\">\n<h2>Findings</h2>\n<p>" << E(line) << (line.back() == '.' ? "" : ".") << "</p>\n";
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) RenderFinding(f, r.diagnosis.Find(f.rule_id), zone, r.node_zone, out);
  }
  if (!r.ruled_out.empty()) out << "<h3>Considered and ruled out</h3>\n";
  for (const auto& f : r.ruled_out) RenderFinding(f, nullptr, zone, r.node_zone, out);
  bool history = false;
  for (const auto& f : r.findings) {
    if (f.tense != Tense::kHistory) continue;
    if (!history) out << "<details id=\"history\"><summary>History: earlier boots and faults that healed</summary>\n";
    history = true;
    RenderFinding(f, nullptr, zone, r.node_zone, out);
  }
  if (history) out << "</details>\n";
  out << "</section>\n";
}

void RenderVersions(const Report& r, std::ostringstream& out) {
  out << "<details id=\"versions\"><summary>Versions</summary>\n";
  if (r.versions.empty()) {
    out << "<p>No component version was captured.</p>\n</details>\n";
    return;
  }
  out << "<table>\n<tr><th>Component</th><th>Version</th><th>Read from</th></tr>\n";
  for (const auto& v : r.versions) {
    out << "<tr><td>" << E(v.component) << "</td><td class=\"mono\">" << E(v.version) << "</td><td class=\"mono\">"
        << E(v.artifact) << "</td></tr>\n";
  }
  out << "</table>\n</details>\n";
}

void RenderTimelineTable(const Report& r, const DisplayZone& zone, std::ostringstream& out) {
  out << "<details id=\"timeline\"><summary>Milestones and intervals</summary>\n<p class=\"meta\">Times in " << E(zone.name())
      << "; the offset is the time since that boot started.</p>\n<table>\n"
      << "<tr><th>Boot</th><th>Time</th><th>Since boot</th><th>Milestone</th><th>Message</th></tr>\n";
  for (const auto& m : r.milestones) {
    out << "<tr><td class=\"num\">" << (m.boot_offset ? std::to_string(*m.boot_offset) : "?")
        << "</td><td class=\"num\">" << E(zone.Format(m.time_ns)) << "</td><td class=\"num\">"
        << (m.since_boot_ns ? FormatOffset(*m.since_boot_ns) : "") << "</td><td>" << E(std::string(m.milestone_name()))
        << "</td><td class=\"mono\">" << E(m.message) << "</td></tr>\n";
  }
  out << "</table>\n";
  if (!r.intervals.empty()) {
    out << "<h3 "
           "style=\"margin-top:18px\">Intervals</h3>\n<table>\n<tr><th>Boot</th><th>Interval</th><th>Seconds</th></"
           "tr>\n";
    for (const auto& i : r.intervals) {
      out << "<tr><td class=\"num\">" << i.boot_offset << "</td><td>" << E(i.name) << "</td><td class=\"num\">"
          << FormatSeconds(i.seconds) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  out << "</details>\n";
}

void RenderCoverage(const Report& r, std::ostringstream& out) {
  out << "<details id=\"coverage\"><summary>Coverage</summary>\n<p>" << r.artifacts_total << " artifacts: " << r.artifacts_ok
      << " ok, " << r.artifacts_failed << " failed (" << r.artifacts_timed_out << " timed out), " << r.artifacts_skipped
      << " skipped, " << r.empty.size() << " empty, " << r.truncated.size() << " truncated; " << r.parse_warnings
      << " unparsed lines, " << r.timeline_warnings << " guessed times.</p>\n<ul class=\"plain\">";
  for (const auto& c : r.coverage) out << "<li class=\"mono\">" << E(c) << "</li>";
  for (const auto* notes : {&r.empty, &r.truncated, &r.unparsed}) {
    for (const auto& n : *notes) out << "<li><code>" << E(n.artifact) << "</code>: " << E(n.note) << "</li>";
  }
  out << "</ul>\n";
  if (RulesNotEvaluated(r) > 0) {
    out << "<p>Rules not evaluated (no finding from them says nothing about the node):</p>\n<ul class=\"plain\">";
    for (const auto& run : r.rule_runs) {
      if (RuleNotEvaluated(run)) {
        out << "<li><code>" << E(run.rule_id) << "</code>: " << E(Word(run.outcome)) << " (" << E(run.reason) << ")</li>";
      }
    }
    out << "</ul>\n";
  }
  out << "</details>\n";
}

}  // namespace

std::string RenderHtml(const Report& r, const DisplayZone& zone) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>gpuforensics: " << E(r.node.empty() ? "(unknown node)" : r.node) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n<main>\n";
  RenderHeader(r, zone, out);
  RenderDiagnosis(r, out);
  RenderChain(r, out);
  RenderFindings(r, zone, out);
  RenderSwimlanes(r, zone, out);
  RenderVersions(r, out);
  RenderTimelineTable(r, zone, out);
  RenderCoverage(r, out);
  out << "<footer>Generated by gpuforensics analyze --format html. Self-contained: it loads nothing.</footer>\n"
      << "</main>\n</body>\n</html>\n";
  return out.str();
}

}  // namespace gpuf
