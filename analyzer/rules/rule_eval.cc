#include "analyzer/rules/rule_eval.h"

#include <algorithm>
#include <set>

#include "analyzer/rules/condition_binding.h"
#include "analyzer/rules/confidence_steps.h"
#include "analyzer/rules/confirming_pieces.h"
#include "analyzer/rules/summary_template.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// What makes an empty result "none": any one of these artifacts captured
// whole - a log selection's artifacts, a message selection's `from` (else
// every artifact), an SQL selection's `from`, else those behind the tables
// it reads. Empty: the selection is always known.
ArtifactChoice SourcesOf(const Selection& s, const SqlSources& sql_sources) {
  if (s.kind == Selection::Kind::kSql && s.from.empty()) {
    auto it = sql_sources.find(s.name);
    return it == sql_sources.end() ? ArtifactChoice{} : it->second;
  }
  return s.kind == Selection::Kind::kSql || (!s.message.empty() && !s.from.empty()) ? s.from : s.sources;
}

// A slice journald dropped lines from cannot show that a line is not there.
bool Captured(const ArtifactChoice& choice, const ArtifactIndex& artifacts) {
  return std::any_of(choice.begin(), choice.end(), [&](const std::string& n) { return artifacts.Complete(n); });
}

// The artifacts behind the unknown selections among `names`, each once; a
// captured slice with gaps says what journald dropped.
std::vector<std::string> Needs(const Rule& rule, const std::vector<std::string>& names,
                               const UnknownSelections& unknown, const ArtifactIndex& artifacts,
                               const SqlSources& sql_sources) {
  std::vector<std::string> needs;
  for (const auto& name : names) {
    const Selection* s = rule.FindSelection(name);
    if (!s || !unknown.count(name)) continue;
    if (s->kind == Selection::Kind::kDerived) {  // what its condition could not read
      for (const auto& group :
           Needs(rule, ConditionSelections(*s->condition, false), unknown, artifacts, sql_sources)) {
        if (std::find(needs.begin(), needs.end(), group) == needs.end()) needs.push_back(group);
      }
      continue;
    }
    std::vector<std::string> sources;
    for (const auto& source : SourcesOf(*s, sql_sources)) {
      std::string gap = artifacts.Gap(source);
      sources.push_back(gap.empty() ? source : source + " whole (" + gap + ")");
    }
    std::string group = Join(sources, " or ");
    if (std::find(needs.begin(), needs.end(), group) == needs.end()) needs.push_back(group);
  }
  return needs;
}

std::vector<std::string> EvidenceSelections(const Rule& rule, const Outcome& outcome) {
  if (!outcome.evidence.empty()) return outcome.evidence;
  return rule.SelectionsOf(outcome);
}

void AddEvidence(const Selection& selection, const std::vector<SelectionRow>& rows, const ArtifactIndex& artifacts,
                 std::vector<FindingEvidence>& out) {
  size_t shown = 0;
  for (const auto& row : rows) {
    if (!row.artifact_id && row.text.empty()) continue;  // a row that only carries fields
    if (shown == kEvidencePerSelection) {
      FindingEvidence more;
      more.selection = selection.name;
      more.shows = Name(selection.shows);
      more.text = "... " + std::to_string(rows.size() - shown) + " more rows of '" + selection.name + "'";
      out.push_back(more);
      return;
    }
    FindingEvidence e;
    e.selection = selection.name;
    e.shows = Name(selection.shows);
    e.artifact_id = row.artifact_id;
    if (row.artifact_id) e.artifact = artifacts.Label(*row.artifact_id);
    e.line = row.line;
    e.time_ns = row.time_ns;
    e.text = row.text;
    out.push_back(e);
    ++shown;
  }
}

void AddEvidenceOf(const Rule& rule, const std::vector<std::string>& names, const SelectionRows& rows,
                   const ArtifactIndex& artifacts, std::vector<FindingEvidence>& out) {
  for (const auto& name : names) {
    auto it = rows.find(name);
    const Selection* s = rule.FindSelection(name);
    if (it != rows.end() && s) AddEvidence(*s, it->second, artifacts, out);
  }
}

// A line from an output whose origin is unknown (pasted, or saved without
// saying where it ran) shows that the words were printed, not where: a
// finding whose events rest only on such lines is at most likely.
void CapUnknownProvenance(const ArtifactIndex& artifacts, ConfidenceSteps& confidence, Finding& f) {
  if (confidence.value() != Confidence::kConfirmed) return;
  bool any = false;
  for (const auto& e : f.evidence) {
    if (e.shows != "event" || !e.artifact_id) continue;
    const BundleArtifact* a = artifacts.Find(*e.artifact_id);
    if (!a || a->context != "unknown") return;
    any = true;
  }
  if (!any) return;
  confidence.Cap(Confidence::kLikely, "the lines it rests on come from outputs whose origin is not known");
  f.missing_evidence.push_back(
      "the lines it rests on come from outputs whose origin is not known (pasted, or saved without saying where "
      "they ran): the same lines captured on the node would confirm it");
}

// A record that outlives its event (permanent: retired pages, the
// remap-failure flag) says the fault happened on that GPU, not when: an
// outcome whose events are only such records cannot say the fault is the
// node's problem now, so it is at most possible.
void CapPermanentOnly(const Rule& rule, const Outcome& outcome, const SelectionRows& shown, ConfidenceSteps& confidence,
                      Finding& f) {
  if (!outcome.condition || confidence.value() == Confidence::kPossible) return;
  bool permanent = false;
  for (const auto& name : ConditionSelections(*outcome.condition, true)) {
    const Selection* s = rule.FindSelection(name);
    auto it = shown.find(name);
    if (!s || s->shows != SelectionKind::kEvent || it == shown.end() || it->second.empty()) continue;
    if (!s->permanent) return;
    permanent = true;
  }
  if (!permanent) return;
  confidence.Cap(Confidence::kPossible, "only a record that outlives the event shows it");
  f.missing_evidence.push_back(
      "only a record that outlives the event shows it (it says the fault happened on that GPU, not when): the "
      "event itself in this boot's logs would make it current");
}

// The GPUs the event rows among `names` are about, each once.
std::vector<std::string> GpusOf(const Rule& rule, const std::vector<std::string>& names, const SelectionRows& rows) {
  std::vector<std::string> gpus;
  for (const auto& name : names) {
    const Selection* s = rule.FindSelection(name);
    auto it = rows.find(name);
    if (!s || s->shows != SelectionKind::kEvent || it == rows.end()) continue;
    for (const auto& row : it->second) {
      if (row.gpu && std::find(gpus.begin(), gpus.end(), *row.gpu) == gpus.end()) gpus.push_back(*row.gpu);
    }
  }
  return gpus;
}

// A GPU as nvidia-smi -i takes it: its PCI address, or its UUID written as
// nvidia-smi prints it ("GPU-" then lower-case hex; the engine's keys are
// lower case).
std::string NvidiaSmiId(const std::string& gpu) { return gpu.rfind("gpu-", 0) == 0 ? "GPU-" + gpu.substr(4) : gpu; }

// A step's {gpu}: the one GPU the finding is about; for several, each is
// named; "<gpu>" when the rows name none.
std::string WithGpu(const std::string& step, const std::vector<std::string>& gpus) {
  std::vector<std::string> ids;
  for (const auto& gpu : gpus) ids.push_back(NvidiaSmiId(gpu));
  return ReplaceAll(step, "{gpu}",
                    ids.size() == 1 ? ids[0] : ids.empty() ? "<gpu>" : "<gpu> for each of " + Join(ids, ", "));
}

// `shown`: the rows the outcome bound; `pieces`: the confirming pieces
// decided over them. The confidence it returns with is the first word after
// the caps.
Finding MakeFinding(const Rule& rule, const Outcome& outcome, const SelectionRows& shown,
                    const std::vector<Truth>& pieces, const ArtifactIndex& artifacts, ConfidenceSteps& confidence) {
  Finding f;
  f.rule_id = rule.id;
  f.title = rule.title;
  f.result = outcome.result;
  f.severity = outcome.severity.value_or(rule.severity);
  f.catalog = outcome.catalog;
  f.symptom = rule.symptom;
  f.role = Name(rule.role);
  f.summary = RenderTemplate(outcome.summary, shown);
  AddEvidenceOf(rule, EvidenceSelections(rule, outcome), shown, artifacts, f.evidence);
  f.gpus = GpusOf(rule, EvidenceSelections(rule, outcome), shown);
  for (const auto& unmet : artifacts.Unmet(rule.optional_artifacts)) f.missing_evidence.push_back("not available: " + unmet);
  for (size_t i = 0; i < pieces.size(); ++i) {
    ++f.confirming_total;
    if (pieces[i] == Truth::kTrue) {
      ++f.confirming_held;
    } else {
      f.missing_evidence.push_back(rule.confirms[i].text);
    }
  }
  f.references = rule.references;
  CapUnknownProvenance(artifacts, confidence, f);
  CapPermanentOnly(rule, outcome, shown, confidence, f);
  return f;
}

// Evidence against, in the rule's order. Returns true when one that rules
// the finding out held.
bool ApplyAgainst(const Rule& rule, const SelectionRows& rows, const UnknownSelections& unknown,
                  const ArtifactIndex& artifacts, const SqlSources& sql_sources, ConfidenceSteps& confidence,
                  Finding& f) {
  std::vector<std::string> held;
  for (const auto& check : rule.against) {
    AgainstResult r;
    r.text = check.text;
    r.effect = Name(check.effect);
    r.catalog = check.catalog;
    Decision d = Decide(*check.condition, rows, unknown);
    Truth t = d.truth;
    r.state = Name(t == Truth::kTrue ? CheckState::kHeld : t == Truth::kFalse ? CheckState::kNotSeen
                                                                              : CheckState::kUnknown);
    if (t == Truth::kUnknown) {
      r.needs = Needs(rule, ConditionSelections(*check.condition, false), unknown, artifacts, sql_sources);
    }
    if (t == Truth::kTrue) {
      SelectionRows shown = BoundView(rows, d.bound, *check.condition);
      AddEvidenceOf(rule, ConditionSelections(*check.condition, true), shown, artifacts, r.evidence);
      held.push_back(check.text);
      if (check.effect == AgainstEffect::kRuleOut) confidence.RuleOut(check.text);
      if (check.effect == AgainstEffect::kLower) confidence.Lower(check.text);
    }
    f.against.push_back(std::move(r));
  }
  if (confidence.ruled_out()) {
    f.tense = Tense::kRuledOut;
    f.tense_reason = Join(held, "; ");
  }
  return confidence.ruled_out();
}

// Current or history: the outcome may say the fault healed; otherwise the
// event rows its condition bound decide - any timed in the boot at capture
// keeps it current and admissible; all in earlier boots, or undone before
// capture (recovery.h), make it history. A state read at capture (a row
// with no time) keeps it current too, except beside an earlier or undone
// event about another subject or none: a reading cannot by itself make an
// earlier boot's event current. A permanent record (retired pages) places
// nothing. Rows that cannot be placed (a time without a boot clock, a
// derived row) leave admissibility open.
void PlaceInTime(const Rule& rule, const Outcome& outcome, const SelectionRows& rows, const ArtifactIndex& artifacts,
                 const BootClock& clock, Finding& f) {
  bool current = false, earlier = false, unplaced = false;
  std::string undone;
  std::vector<const SelectionRow*> snapshots;
  std::set<std::string> past_gpus;  // the GPUs of earlier or undone events
  for (const auto& name : rule.SelectionsOf(outcome)) {
    const Selection* s = rule.FindSelection(name);
    auto it = rows.find(name);
    if (!s || s->shows != SelectionKind::kEvent || s->permanent || it == rows.end()) continue;
    for (const auto& row : it->second) {
      RowBoot boot = clock.Of(row, artifacts);
      bool snapshot = boot == RowBoot::kUnplaced && !row.time_ns && row.artifact_id;  // read at capture
      bool past = !row.undone.empty() || boot == RowBoot::kEarlier;
      if (!row.undone.empty() && undone.empty()) undone = row.undone;
      if (past && row.gpu) past_gpus.insert(*row.gpu);
      if (snapshot && row.undone.empty()) {
        snapshots.push_back(&row);
      } else if (past) {
        earlier = true;
      } else if (boot == RowBoot::kCurrent) {
        current = true;
      } else {
        unplaced = true;
      }
    }
  }
  for (const SelectionRow* row : snapshots) {
    if (!earlier || (row->gpu && past_gpus.count(*row->gpu))) current = true;
  }
  if (outcome.history) {
    f.tense = Tense::kHistory;
    f.tense_reason = "the fault healed: a later start worked";
  } else if (earlier && !current && !unplaced) {
    f.tense = Tense::kHistory;
    f.tense_reason = undone.empty() ? "all its evidence is from an earlier boot" : "undone before capture: " + undone;
  }
  if (f.tense == Tense::kHistory) {
    f.admissible = false;
    if (Serious(f.severity)) f.severity = Severity::kLow;
  } else if (current) {
    f.admissible = true;
  }
  for (const auto& step : rule.remediation) {
    if (!(step.recover && f.tense == Tense::kHistory)) f.remediation.push_back(WithGpu(step.text, f.gpus));
  }
}

// The selections as the outcomes saw them: their rows, or why they are unknown.
std::vector<SelectionExplanation> ExplainSelections(const Rule& rule, const SelectionRows& rows,
                                                    const UnknownSelections& unknown, const ArtifactIndex& artifacts,
                                                    const SqlSources& sql_sources) {
  std::vector<SelectionExplanation> out;
  for (const auto& s : rule.selections) {
    SelectionExplanation x;
    x.name = s.name;
    x.shows = Name(s.shows);
    if (!s.message.empty()) {
      x.reads = (s.patterns.empty() ? "the journal's " : "the catalogue's ") + s.message;
      for (const auto& filter : s.where) x.reads += " " + filter.Describe();
      if (!s.not_also.empty()) x.reads += ", not also " + Join(s.not_also, " or ");
    } else if (s.kind == Selection::Kind::kLog) {
      x.reads = "its own pattern over " + Join(s.sources, ", ");
    } else if (s.kind == Selection::Kind::kDerived) {
      x.reads = "the rows of " + Join(s.rows_of, " and ") + " for which " + s.when;
      for (const auto& filter : s.where) x.reads += " " + filter.Describe();
    } else {
      x.reads = "SQL";
    }
    auto it = rows.find(s.name);
    x.rows = it == rows.end() ? 0 : it->second.size();
    if (x.rows > 0) {
      x.state = "true";
      for (size_t i = 0; i < x.rows && i < kExplainedRowsPerSelection; ++i) {
        const SelectionRow& row = it->second[i];
        // Which of several plugin logs or journal slices: the instance too.
        std::string label = row.artifact_id ? artifacts.Label(*row.artifact_id) : "";
        std::string where = label.empty() ? "(derived)" : label + (row.line ? ":" + std::to_string(*row.line) : "");
        x.examples.push_back(where + "  " + (row.text.empty() ? "(fields only)" : row.text));
      }
    } else if (unknown.count(s.name)) {
      x.state = "unknown";
      x.needs = Join(Needs(rule, {s.name}, unknown, artifacts, sql_sources), "; ");
    } else {
      x.state = "false";
    }
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace

UnknownSelections UnknownOf(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts,
                            const SqlSources& sql_sources) {
  UnknownSelections unknown;
  for (const auto& s : rule.selections) {
    auto it = rows.find(s.name);
    if (it != rows.end() && !it->second.empty()) continue;
    const ArtifactChoice sources = SourcesOf(s, sql_sources);
    if (!sources.empty() && !Captured(sources, artifacts)) unknown.insert(s.name);
  }
  return unknown;
}

std::vector<SelectionRow> DeriveRows(const Selection& s, const SelectionRows& rows, UnknownSelections& unknown) {
  Decision d = Decide(*s.condition, rows, unknown);
  std::vector<SelectionRow> kept;
  if (d.truth == Truth::kTrue) {
    for (const std::string& base : s.rows_of) {
      auto all = rows.find(base);
      if (all == rows.end()) continue;
      for (size_t i : d.bound[base]) {
        const SelectionRow& row = all->second[i];
        // One line two of the selections read is one row.
        bool seen = row.line && std::any_of(kept.begin(), kept.end(), [&](const SelectionRow& k) {
                      return k.artifact_id == row.artifact_id && k.line == row.line;
                    });
        if (!seen) kept.push_back(row);
      }
    }
    KeepWhere(s.where, kept);
  }
  // A row the condition may hold for leaves the selection open.
  if (kept.empty() && d.truth == Truth::kUnknown) unknown.insert(s.name);
  return kept;
}

Evaluation EvaluateRule(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts,
                        const BootClock& clock, const SqlSources& sql_sources,
                        const UnknownSelections& unknown_derived) {
  Evaluation e;
  e.run.rule_id = rule.id;
  UnknownSelections unknown = UnknownOf(rule, rows, artifacts, sql_sources);
  unknown.insert(unknown_derived.begin(), unknown_derived.end());
  e.explanation.selections = ExplainSelections(rule, rows, unknown, artifacts, sql_sources);
  for (const auto& outcome : rule.outcomes) {
    e.explanation.outcomes.push_back(
        {outcome.when, Word(outcome.result), outcome.confidence ? Word(*outcome.confidence) : "", "not reached"});
  }
  const Outcome* undecided = nullptr;
  std::vector<std::string> undecided_needs;
  for (size_t i = 0; i < rule.outcomes.size(); ++i) {
    const Outcome& outcome = rule.outcomes[i];
    // No condition: always holds, every row its own.
    const Decision d = outcome.condition ? Decide(*outcome.condition, rows, unknown) : Decision{Truth::kTrue, {}};
    const Truth t = d.truth;
    e.explanation.outcomes[i].truth = TruthName(t);
    if (t == Truth::kUnknown && outcome.result != RuleOutcome::kPass && !undecided) {
      undecided = &outcome;
      undecided_needs = Needs(rule, ConditionSelections(*outcome.condition, false), unknown, artifacts, sql_sources);
    }
    if (t != Truth::kTrue) continue;
    if (outcome.result == RuleOutcome::kPass && undecided) break;
    e.run.outcome = outcome.result;
    if (outcome.result == RuleOutcome::kPass) {
      e.run.reason = outcome.summary.empty() ? "passed: " + outcome.when : RenderTemplate(outcome.summary, rows);
      return e;
    }
    // The rows the outcome's operators bound are its evidence, its summary's
    // values and what places it in time.
    const SelectionRows shown = outcome.condition ? BoundView(rows, d.bound, *outcome.condition) : rows;
    const std::vector<Truth> pieces = DecidePieces(rule, shown, unknown);
    for (size_t p = 0; p < pieces.size(); ++p) {
      e.explanation.pieces.push_back({rule.confirms[p].when, TruthName(pieces[p])});
    }
    ConfidenceSteps confidence = StartingConfidence(rule, outcome, shown, pieces);
    Finding f = MakeFinding(rule, outcome, shown, pieces, artifacts, confidence);
    f.confidence_before = confidence.value();
    if (undecided) {
      f.missing_evidence.push_back("not captured: " + Join(undecided_needs, "; ") + " - it decides whether '" +
                                   undecided->when + "' holds");
    }
    PlaceInTime(rule, outcome, shown, artifacts, clock, f);
    const bool ruled_out = ApplyAgainst(rule, rows, unknown, artifacts, sql_sources, confidence, f);
    f.confidence = confidence.value();
    f.confidence_steps = confidence.steps();
    if (ruled_out) {
      e.run.outcome = RuleOutcome::kRuledOut;
      e.run.reason = "ruled out: " + f.tense_reason;
    } else {
      e.run.reason = f.summary;
    }
    e.finding = std::move(f);
    return e;
  }
  if (undecided) {
    e.run.outcome = RuleOutcome::kUnknown;
    e.run.reason = "undecided: " + Join(undecided_needs, "; ") + " not captured, and it decides whether '" +
                   undecided->when + "' holds";
    return e;
  }
  e.run.outcome = RuleOutcome::kPass;
  e.run.reason = "no outcome's condition held";
  return e;
}

}  // namespace gpuf
