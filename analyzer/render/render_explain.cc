#include "analyzer/render/render_explain.h"

#include <cstdio>

#include "common/vocabulary.h"

namespace gpuf {

namespace {

std::string Padded(const std::string& text, size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

const Finding* FindingOf(const RuleRunSummary& summary, const std::string& id) {
  for (const auto* list : {&summary.findings, &summary.ruled_out}) {
    for (const auto& f : *list) {
      if (f.rule_id == id) return &f;
    }
  }
  return nullptr;
}

void Selections(const RuleExplanation& x, std::string& out) {
  out += "\nselections (what each found)\n";
  for (const auto& s : x.selections) {
    std::string state =
        s.state == "true" ? "true (" + std::to_string(s.rows) + (s.rows == 1 ? " row)" : " rows)") : s.state;
    out += "  " + Padded(s.name, 24) + Padded(s.shows, 13) + Padded(state, 14) + s.reads + "\n";
    for (const auto& e : s.examples) out += "      " + e + "\n";
    if (s.rows > s.examples.size()) out += "      ... and " + std::to_string(s.rows - s.examples.size()) + " more\n";
    if (!s.needs.empty()) out += "      not captured: " + s.needs + "\n";
  }
}

// `unknown_run`: the run's result is unknown - a fail or warn outcome could
// not be decided, and no later fail or warn held.
void Outcomes(const RuleExplanation& x, bool unknown_run, std::string& out) {
  out += "\noutcomes, in order (the first that holds decides; a fail or warn left unknown keeps a later pass from "
         "deciding)\n";
  bool decided = false;
  for (size_t i = 0; i < x.outcomes.size(); ++i) {
    const auto& o = x.outcomes[i];
    std::string result = o.result + (o.confidence.empty() ? "" : " " + o.confidence);
    std::string line = "  " + Padded(std::to_string(i + 1), 3) + Padded(o.truth, 12) + Padded(result, 17) +
                       (o.when.empty() ? "(always)" : "when " + o.when);
    if (unknown_run && o.truth == "unknown" && o.result != "pass" && !decided) {
      line += "   <- undecided: it needs what was not captured";
      decided = true;
    } else if (!unknown_run && o.truth == "true" && !decided) {
      line += "   <- decided";
      decided = true;
    }
    out += line + "\n";
  }
}

void RenderConfidenceSteps(const RuleExplanation& x, const Finding& f, std::string& out) {
  if (!x.pieces.empty()) {
    out += "\nconfirming pieces, over the rows the decided outcome bound\n";
    for (const auto& p : x.pieces) out += "  " + Padded(p.truth, 12) + p.when + "\n";
  }
  out += "\nconfidence\n";
  for (const auto& step : f.confidence_steps) out += "  " + step + "\n";
  for (const auto& a : f.against) {
    std::string state = a.state == "held"      ? "HELD (" + a.effect + ")"
                        : a.state == "unknown" ? "not captured"
                                               : "not seen";
    out += "  against: " + a.text + ": " + state + "\n";
  }
  for (const auto& m : f.missing_evidence) out += "  missing: " + m + "\n";
  out += "tense: " + Word(f.tense) + (f.tense_reason.empty() ? "" : " (" + f.tense_reason + ")") + "\n";
}

}  // namespace

Result<std::string> RenderExplanation(const RuleRunSummary& summary, const std::string& rule_id) {
  const RuleRun* run = nullptr;
  for (const auto& r : summary.runs) {
    if (r.rule_id == rule_id && !run) run = &r;  // a repeated id's error run comes after
  }
  if (!run) {
    std::string ids;
    for (const auto& r : summary.runs) ids += (ids.empty() ? "" : ", ") + r.rule_id;
    return Status::NotFound("no rule '" + rule_id + "'", "the rules run were: " + ids);
  }
  std::string out = "rule " + rule_id + ": " + Word(run->outcome);
  const Finding* f = FindingOf(summary, rule_id);
  if (f) out += " (" + Word(f->confidence) + ", " + Word(f->tense) + ")";
  out += "\n  " + run->reason + "\n";
  auto x = summary.explanations.find(rule_id);
  if (x == summary.explanations.end()) {
    out += "\nnot evaluated: nothing was selected or decided\n";
    return out;
  }
  Selections(x->second, out);
  Outcomes(x->second, run->outcome == RuleOutcome::kUnknown, out);
  if (f) RenderConfidenceSteps(x->second, *f, out);
  return out;
}

}  // namespace gpuf
