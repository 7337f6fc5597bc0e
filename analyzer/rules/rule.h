// One known issue as the rule engine holds it, after rules/<id>.yaml has been
// read and checked (rule_parser.h). rules/README.md is the written format; this
// struct is its in-memory twin and carries no YAML.
//
// A rule selects evidence (log lines matched by RE2, rows returned by SQL),
// then walks its outcomes in order: the first whose condition holds decides
// the result (fail, warn or pass); a finding's confidence is computed from
// the rule's confirming pieces (`confirms`) as the outcome bound them.
#ifndef GPUF_ANALYZER_RULES_RULE_H_
#define GPUF_ANALYZER_RULES_RULE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/rules/condition.h"
#include "analyzer/rules/diagnosis_vocab.h"
#include "common/vocabulary.h"
#include "formats/field_filter.h"
#include "formats/yaml_error.h"

namespace gpuf {

struct RuleReference {
  std::string kind;   // "upstream-bug" | "vendor-doc" | "kb"
  std::string url;
  std::string title;  // "" when not given
};

// One pattern a log selection matches: the rule's own, or a catalogue
// entry's (its id, and the fields it sets on every row it matches).
struct LinePattern {
  std::string text;                                       // RE2
  std::string entry;                                      // the catalogue entry's id; "" for the rule's own
  std::vector<std::pair<std::string, std::string>> set;   // fields every row gets
  std::string unless{};                                   // RE2: a line it matches is not the event
};

// Artifacts any one of which, captured whole, makes an empty result "none".
using ArtifactChoice = std::vector<std::string>;

struct Selection {
  enum class Kind { kLog, kSql, kDerived };
  std::string name;
  Kind kind = Kind::kLog;
  // kLog: logical artifact names; a trailing '*' matches a prefix ("journal.*").
  std::vector<std::string> sources;
  std::string pattern;                 // kLog: RE2, partial match unless anchored; "" for `message:`
  // kLog from the message catalogue: the event kind, and the filters its
  // rows' fields must pass (reason = lib_mismatch); "" for a pattern of the rule's own.
  std::string message;
  FieldFilters where;
  // kLog from the catalogue: event kinds a line must not also be (the
  // health check's "failed to initialize NVML" is not the plugin's start
  // failing); their wordings join each pattern's `unless`.
  std::vector<std::string> not_also;
  std::vector<LinePattern> patterns;   // kLog: what is matched, the pattern or the kind's entries
  std::string sql;                     // kSql: one read-only statement
  // kDerived: the rows of earlier selections that take part in a certain
  // binding of a condition over the selections above it ("the waits with
  // no failure of their container in the 5 s before"); of several, their
  // rows together, in the order the list names them.
  std::vector<std::string> rows_of;
  std::string when;
  std::shared_ptr<const Condition> condition;
  YamlMark mark;                       // of the pattern or the SQL
  SelectionKind shows = SelectionKind::kEvent;  // what its rows show: event, precondition or context
  // Its rows are records that outlive the event (retired pages, a remap
  // failure flag): read at capture, they say that it happened, not that it
  // is current, so they never place a finding in the boot at capture.
  bool permanent = false;
  // Only the rows about the fault at capture: the engine drops those undone
  // before capture (recovery.h) or from an earlier boot, so a rule that
  // needs "the failure still standing" names it instead of writing it in SQL.
  bool current = false;
  // Artifacts whose capture makes an empty result mean "none": kLog reads
  // `sources`; kSql the names given with `from`, else what the engine
  // derives from the tables it reads (rule_sql.h ArtifactsBehind).
  std::vector<std::string> from;
};

struct Outcome {
  std::string when;                     // condition text; "" = always
  std::shared_ptr<const Condition> condition;  // nullptr when `when` is ""
  RuleOutcome result = RuleOutcome::kPass;     // fail, warn or pass
  // A literal word, as rules written before confidence was computed say
  // it (`rules lint` refuses it); none: computed from `confirms`.
  std::optional<Confidence> confidence;
  std::optional<Severity> severity;      // overrides the rule's severity; none: the rule's
  std::string summary;                  // template: {selection.field}, {count(selection)}
  std::vector<std::string> evidence;    // selections to show; empty = those the condition names
  std::string catalog;                  // fail/warn: the catalog entry this form of the issue follows
  bool history = false;                 // the fault it describes healed (a later start worked)
  YamlMark mark;                        // of the outcome
};

// Evidence against a finding: when `when` holds, the finding is ruled out
// or its confidence lowered one step. Checked for every finding and shown
// with what it found (held, not seen, not captured).
struct AgainstCheck {
  std::string when;
  std::shared_ptr<const Condition> condition;
  AgainstEffect effect = AgainstEffect::kLower;
  std::string text;     // what the evidence says against the issue
  std::string catalog;  // the catalog's AGAINST entry it follows
};

// A remediation step; a recovery step (restart, reboot) is left out where
// the fault already healed.
struct RemediationStep {
  std::string text;  // may hold {restart-plugin}, {drain-node} (report.h)
  bool recover = false;
};

// One piece of what the catalog calls CONFIRMS. A finding's confidence is
// computed from how many hold over the rows its outcome bound: all of
// them, confirmed; all but one, likely; fewer, possible (docs/diagnosis.md
// section 2). Each that does not hold is listed with its text.
struct ConfirmingPiece {
  std::string when;
  std::shared_ptr<const Condition> condition;
  std::string text;  // what would confirm it, said where it is absent
};

// A log line of an inline sample. time_ns is absent when the line has none.
struct SampleLine {
  std::string artifact;  // "plugin.log" or "plugin.log[0.log]"
  std::optional<int64_t> time_ns;
  std::string text;
  std::string identifier;  // journal: SYSLOG_IDENTIFIER override, "" = by artifact
  std::string unit;        // journal: unit override
};

// A row for one table of the schema; values are SQL literals' text, or
// nullopt for NULL. "artifact" names an artifact instead of an artifact_id.
struct SampleRow {
  std::string table;
  std::vector<std::pair<std::string, std::optional<std::string>>> columns;
  YamlMark mark;
};

struct RuleSample {
  std::string name;
  // "fail" | "warn" | "pass" | "skipped" | "unknown" | "ruled-out" | "history"
  std::string expect_result;
  std::string expect_confidence;  // "" unless a finding is expected
  std::string expect_summary;     // text the outcome's summary must contain; "" for any
  std::string bundle;             // a bundle file, resolved against the rule file's folder
  // Inline evidence: artifacts (name[instance] -> status), lines, rows.
  std::vector<std::pair<std::string, std::string>> artifacts;
  std::vector<SampleLine> lines;
  std::vector<SampleRow> rows;
  YamlMark mark;
  // Looks like the issue but is not it: another cause, or its precondition
  // without the event. Expects pass, ruled-out or history.
  bool near_miss = false;
  bool positive() const { return expect_result == "fail" || expect_result == "warn"; }
};

struct Rule {
  std::string id;    // == file stem
  std::string file;  // path it was read from
  std::string title;
  std::string description;
  Severity severity = Severity::kInfo;
  std::string symptom;   // one of Symptoms() (diagnosis_vocab.h)
  Role role = Role::kCause;
  std::vector<RuleReference> references;
  // Each entry is satisfied by any one of its names.
  std::vector<std::vector<std::string>> required_artifacts;
  std::vector<std::vector<std::string>> optional_artifacts;
  std::vector<Selection> selections;
  std::vector<Outcome> outcomes;
  std::vector<ConfirmingPiece> confirms;
  // Written as `missing: {unless, text}`, the older name of `confirms`.
  bool confirms_as_missing = false;
  std::vector<AgainstCheck> against;
  std::vector<RemediationStep> remediation;
  std::vector<std::string> explained_by;
  // `applies_to: any-node`: it runs on a node the bundle shows has no
  // NVIDIA GPU (node_kind.h); every other rule is about a GPU node's chain
  // and is skipped there.
  bool any_node = false;
  std::vector<RuleSample> samples;

  const Selection* FindSelection(const std::string& name) const {
    for (const auto& s : selections) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }

  // The selections an outcome rests on: those its condition reads outside
  // `not`; every selection for one without a condition.
  std::vector<std::string> SelectionsOf(const Outcome& outcome) const {
    if (outcome.condition) return ConditionSelections(*outcome.condition, true);
    std::vector<std::string> all;
    for (const auto& s : selections) all.push_back(s.name);
    return all;
  }
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_H_
