#include "analyzer/rules/rule_parser.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "analyzer/rules/rule_artifacts.h"
#include "analyzer/rules/sample_parser.h"
#include "analyzer/rules/summary_template.h"
#include "common/event_kinds.h"
#include "common/file_io.h"
#include "common/text_lines.h"
#include "common/vocabulary.h"
#include "formats/message_catalogue.h"
#include "formats/pattern_options.h"
#include "formats/yaml_error.h"
#include "formats/yaml_reader.h"

namespace gpuf {

namespace {

bool IsSelectionName(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The first word of an SQL text, past blanks and "--" comments, upper-cased.
std::string FirstSqlWord(std::string_view sql) {
  size_t i = 0;
  while (i < sql.size()) {
    if (std::isspace(static_cast<unsigned char>(sql[i]))) {
      ++i;
    } else if (sql.substr(i, 2) == "--") {
      i = sql.find('\n', i);
      if (i == std::string_view::npos) return "";
    } else {
      break;
    }
  }
  std::string word;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++])));
  }
  return word;
}

class RuleParser {
 public:
  RuleParser(const std::string& file, std::string_view text) : reader_(file, text) {}

  Result<Rule> Parse(const YAML::Node& doc) {
    rule_.file = reader_.file();
    if (!ReadTop(doc)) return reader_.status();
    return rule_;
  }

  YamlReader& reader() { return reader_; }

 private:
  // Where offset `offset` of a one-line plain or quoted scalar lies (quoted
  // ones start one column later); the node's own mark for block scalars
  // (| and >) and anything spanning lines.
  YamlMark ValueMark(const YAML::Node& node, size_t offset) const {
    YamlMark mark = YamlReader::MarkOf(node);
    std::string_view text = reader_.text();
    size_t at = 0;
    for (int line = 0; line < mark.line && at != std::string_view::npos; ++line) {
      at = text.find('\n', at);
      if (at != std::string_view::npos) ++at;
    }
    if (at == std::string_view::npos) return mark;
    at += mark.column;
    bool block = at < text.size() && (text[at] == '|' || text[at] == '>');
    if (!block && node.Scalar().find('\n') == std::string::npos) {
      mark.column += static_cast<int>(offset) + (at < text.size() && (text[at] == '\'' || text[at] == '"') ? 1 : 0);
    }
    return mark;
  }

  bool ReadTop(const YAML::Node& doc) {
    if (!reader_.Fields(doc, "a rule",
                        {"id", "title", "description", "severity", "symptom", "role", "references", "requires",
                         "optional", "select", "outcomes", "confirms", "missing", "against", "remediation",
                         "explained_by", "applies_to", "samples"},
                        {"id", "title", "description", "severity", "symptom", "role", "references", "select",
                         "outcomes", "remediation", "samples"})) {
      return false;
    }
    if (!reader_.Scalar(doc["id"], "id", &rule_.id)) return false;
    if (!IsKebab(rule_.id)) return reader_.Error(doc["id"], "id '" + rule_.id + "' is not kebab-case (a-z, 0-9, '-')");
    std::string stem = std::filesystem::path(rule_.file).stem().string();
    if (stem != rule_.id) return reader_.Error(doc["id"], "id '" + rule_.id + "' differs from the file name '" + stem + "'");
    if (!reader_.Scalar(doc["title"], "title", &rule_.title) ||
        !reader_.Scalar(doc["description"], "description", &rule_.description) ||
        !reader_.Word(doc["severity"], "severity", &rule_.severity)) {
      return false;
    }
    if (!ReadDiagnosis(doc)) return false;
    if (!ReadReferences(doc["references"])) return false;
    if (doc["requires"] && !ReadRuleArtifactGroups(reader_, doc["requires"], "requires", &rule_.required_artifacts)) {
      return false;
    }
    if (doc["optional"] && !ReadRuleArtifactGroups(reader_, doc["optional"], "optional", &rule_.optional_artifacts)) {
      return false;
    }
    if (!ReadSelections(doc["select"]) || !ReadOutcomes(doc["outcomes"])) return false;
    if (doc["confirms"] && doc["missing"]) {
      return reader_.Error(doc["missing"], "missing is the older name of confirms: write one of them");
    }
    if (doc["confirms"] && !ReadConfirms(doc["confirms"], "confirms", "when")) return false;
    if (doc["missing"] && !ReadConfirms(doc["missing"], "missing", "unless")) return false;
    rule_.confirms_as_missing = static_cast<bool>(doc["missing"]);
    if (doc["against"] && !ReadAgainst(doc["against"])) return false;
    if (!ReadRemediation(doc["remediation"])) return false;
    if (doc["explained_by"] && !ReadExplainedBy(doc["explained_by"])) return false;
    if (doc["applies_to"] && !ReadAppliesTo(doc["applies_to"])) return false;
    return ReadSamples(reader_, doc["samples"], &rule_.samples);
  }

  bool ReadAppliesTo(const YAML::Node& node) {
    std::string nodes;
    if (!reader_.Scalar(node, "applies_to", &nodes)) return false;
    if (nodes == "any-node") {
      rule_.any_node = true;
    } else if (nodes != "gpu-nodes") {
      return reader_.Error(node, "applies_to is gpu-nodes (the default) or any-node, not '" + nodes + "'");
    }
    return true;
  }

  // The symptom the rule explains and its part in explaining it.
  bool ReadDiagnosis(const YAML::Node& doc) {
    if (!reader_.Scalar(doc["symptom"], "symptom", &rule_.symptom)) return false;
    if (!FindSymptom(rule_.symptom)) {
      std::string known;
      for (const auto& s : Symptoms()) known += (known.empty() ? "" : ", ") + std::string(s.id);
      return reader_.Error(doc["symptom"], "unknown symptom '" + rule_.symptom + "' (one of " + known + ")");
    }
    std::string role;
    if (!reader_.Choice(doc["role"], "role", {"cause", "trigger", "amplifier", "consequence"}, &role)) return false;
    rule_.role = *ParseRole(role);
    return true;
  }

  bool ReadReferences(const YAML::Node& node) {
    if (!node.IsSequence() || node.size() == 0) return reader_.Error(node, "references must be a non-empty list");
    for (const auto& item : node) {
      RuleReference ref;
      if (!reader_.Fields(item, "a reference", {"kind", "url", "title"}, {"kind", "url"}) ||
          !reader_.Choice(item["kind"], "reference kind", {"upstream-bug", "vendor-doc", "kb"}, &ref.kind) ||
          !reader_.Scalar(item["url"], "url", &ref.url)) {
        return false;
      }
      if (ref.url.rfind("https://", 0) != 0 && ref.url.rfind("http://", 0) != 0) {
        return reader_.Error(item["url"], "url must start with https:// or http://");
      }
      if (item["title"] && !reader_.Scalar(item["title"], "title", &ref.title)) return false;
      rule_.references.push_back(ref);
    }
    return true;
  }

  bool ReadSelections(const YAML::Node& node) {
    if (!node.IsMap() || node.size() == 0) return reader_.Error(node, "select must be a map of named selections");
    for (const auto& item : node) {
      Selection s;
      if (!reader_.Scalar(item.first, "a selection name", &s.name)) return false;
      if (!IsSelectionName(s.name)) {
        return reader_.Error(item.first, "selection name '" + s.name + "' must be lower_snake_case");
      }
      ConditionError unused;
      std::vector<std::string> self{s.name};
      if (!ParseCondition(s.name, &self, &unused)) {
        return reader_.Error(item.first, "selection name '" + s.name + "' is a condition keyword");
      }
      if (rule_.FindSelection(s.name)) return reader_.Error(item.first, "selection '" + s.name + "' given twice");
      if (!ReadSelection(item.second, s)) return false;
      rule_.selections.push_back(s);
    }
    return true;
  }

  bool ReadFlag(const YAML::Node& node, const std::string& what, bool* out) {
    std::string flag;
    if (!reader_.Choice(node, what, {"true", "false"}, &flag)) return false;
    *out = flag == "true";
    return true;
  }

  bool ReadSelection(const YAML::Node& node, Selection& s) {
    if (!reader_.Fields(node, "a selection",
                        {"kind", "log", "pattern", "prefilter", "sql", "from", "message", "where", "not_also",
                         "permanent", "current", "rows_of", "when"},
                        {"kind"})) {
      return false;
    }
    std::string kind;
    if (!reader_.Choice(node["kind"], "selection kind", {"event", "precondition", "context"}, &kind)) return false;
    s.shows = *ParseSelectionKind(kind);
    if (node["permanent"] && !ReadFlag(node["permanent"], "permanent", &s.permanent)) return false;
    if (node["current"] && !ReadFlag(node["current"], "current", &s.current)) return false;
    if (node["message"]) return ReadMessageSelection(node, s);
    if (node["rows_of"] || node["when"]) return ReadDerivedSelection(node, s);
    if (node["where"]) return reader_.Error(node["where"], "where is for message and rows_of selections");
    if (node["not_also"]) return reader_.Error(node["not_also"], "not_also is for message selections");
    if (node["from"] && !node["sql"]) {
      return reader_.Error(node["from"], "from is for sql selections; a log selection reads its log artifacts");
    }
    if (node["from"] && !ReadRuleArtifacts(reader_, node["from"], "from", &s.from)) return false;
    if (node["sql"]) {
      if (node["log"] || node["pattern"] || node["prefilter"]) {
        return reader_.Error(node, "a selection has either sql or log and pattern, not both");
      }
      s.kind = Selection::Kind::kSql;
      s.mark = YamlReader::MarkOf(node["sql"]);
      if (!reader_.Scalar(node["sql"], "sql", &s.sql)) return false;
      std::string word = FirstSqlWord(s.sql);
      if (word != "SELECT" && word != "WITH") {
        return reader_.Error(node["sql"], "sql must be one SELECT statement (or WITH ... SELECT)");
      }
      return true;
    }
    if (!node["log"] || !node["pattern"]) return reader_.Error(node, "a selection needs sql, or log and pattern");
    s.kind = Selection::Kind::kLog;
    s.mark = YamlReader::MarkOf(node["pattern"]);
    if (!ReadRuleArtifacts(reader_, node["log"], "log", &s.sources) ||
        !reader_.Scalar(node["pattern"], "pattern", &s.pattern)) {
      return false;
    }
    RE2 re(s.pattern, RulePatternOptions());
    if (!re.ok()) return reader_.Error(node["pattern"], "pattern does not compile: " + re.error());
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
      if (name == "text" || name == "line" || name == "time") {
        return reader_.Error(node["pattern"], "capture name '" + name + "' is reserved (text, line, time)");
      }
    }
    s.patterns.push_back({s.pattern, "", {}});
    // Accepted from older files and not used: RE2 derives the prefilter (log_scan.h).
    std::vector<std::string> prefilter;
    if (node["prefilter"]) return reader_.Strings(node["prefilter"], "prefilter", &prefilter);
    return true;
  }

  // `rows_of: NAME` (or a list of names), with `when: CONDITION` and
  // `where: {field: filter}` if given: the rows of earlier selections that a
  // binding of the condition holds for (without one, every row), whose
  // fields pass the filters.
  bool ReadDerivedSelection(const YAML::Node& node, Selection& s) {
    if (node["log"] || node["pattern"] || node["sql"] || node["prefilter"] || node["from"] || node["current"] ||
        node["permanent"]) {
      return reader_.Error(node,
                           "a selection with rows_of keeps rows of another by a condition: no log, pattern, "
                           "sql or from, and it is current or permanent as that one is");
    }
    if (!node["rows_of"]) return reader_.Error(node, "when belongs to a selection with rows_of");
    s.kind = Selection::Kind::kDerived;
    if (!ReadOneOrMore(node["rows_of"], "rows_of", "rows_of names no selection", &s.rows_of)) return false;
    s.permanent = true;
    for (const std::string& name : s.rows_of) {
      const Selection* base = rule_.FindSelection(name);
      if (!base) {
        return reader_.Error(node["rows_of"], "rows_of names '" + name + "', which is not a selection above it");
      }
      s.permanent = s.permanent && base->permanent;
    }
    if (node["where"] && !ReadWhere(node["where"], nullptr, &s.where)) return false;
    s.mark = YamlReader::MarkOf(node["when"] ? node["when"] : node["rows_of"]);
    if (node["when"]) {
      if (!ReadCondition(node["when"], &s.when, &s.condition)) return false;
    } else {
      s.when = Join(s.rows_of, " or ");
      if (!ReadConditionText(node["rows_of"], s.when, &s.condition)) return false;
    }
    std::vector<std::string> named = ConditionSelections(*s.condition, true);
    for (const std::string& name : s.rows_of) {
      if (std::find(named.begin(), named.end(), name) == named.end()) {
        return reader_.Error(node["when"], "the condition does not bind rows of " + name + " (rows_of)");
      }
    }
    return true;
  }

  // One string, or a non-empty list of them; `empty` says what [] lacks.
  bool ReadOneOrMore(const YAML::Node& node, const std::string& what, const std::string& empty,
                     std::vector<std::string>* out) {
    if (node.IsSequence()) {
      if (node.size() == 0) return reader_.Error(node, empty);
      return reader_.Strings(node, what, out);
    }
    std::string one;
    if (!reader_.Scalar(node, what, &one)) return false;
    out->push_back(one);
    return true;
  }

  // `{matches: RE2}`: found in the field, as a rule's patterns are.
  bool ReadFilterPattern(const YAML::Node& node, FieldFilter* filter) {
    std::string text;
    if (!reader_.Scalar(node, "matches", &text)) return false;
    auto re = std::make_shared<const RE2>(text, RulePatternOptions());
    if (!re->ok()) return reader_.Error(node, "matches does not compile: " + re->error());
    filter->pattern = std::move(re);
    return true;
  }

  // A filter's values: one, a list of them, or null (none: the field absent).
  bool ReadFilterValues(const YAML::Node& node, std::vector<std::string>* values) {
    if (node.IsNull()) return true;
    return ReadOneOrMore(node, "a value", "an empty list passes nothing: write null for an absent field", values);
  }

  // `where: {field: filter, ...}`; the fields checked against the event
  // kind's where the rows are of one.
  bool ReadWhere(const YAML::Node& node, const EventKindRow* kind, FieldFilters* where) {
    if (!node.IsMap()) return reader_.Error(node, "where must be a map of field: value");
    for (const auto& pair : node) {
      FieldFilter filter;
      if (!reader_.Scalar(pair.first, "a field", &filter.field)) return false;
      if (kind && !KindHasField(*kind, filter.field)) {
        return reader_.Error(pair.first, "'" + filter.field + "' is not a field of " + std::string(kind->name) + " (" +
                                             std::string(kind->fields) + ")");
      }
      YAML::Node given = pair.second;
      filter.negated = given.IsMap() && given["not"];
      if (filter.negated) given = given["not"];
      if (given.IsMap()) {
        if (given.size() != 1 || !given["matches"]) {
          return reader_.Error(given,
                               "a field's filter is a value, a list, null, {matches: RE2}, or {not: ...} of one");
        }
        if (!ReadFilterPattern(given["matches"], &filter)) return false;
      } else if (!ReadFilterValues(given, &filter.values)) {
        return false;
      }
      where->push_back(std::move(filter));
    }
    return true;
  }

  // `not_also: KIND` or a list of kinds, none the selection's own.
  bool ReadOtherKinds(const YAML::Node& node, Selection& s) {
    if (!ReadOneOrMore(node, "not_also", "not_also names no kind", &s.not_also)) return false;
    for (const std::string& kind : s.not_also) {
      if (kind == s.message) return reader_.Error(node, "not_also names the selection's own kind " + kind);
      if (AnyWordingOf(ActiveMessages(), kind).empty()) {
        return reader_.Error(node, "no catalogue entry says " + kind + " (not_also reads its wordings)");
      }
    }
    return true;
  }

  // `message: KIND` with `where: {field: value}`: every line of every
  // artifact, matched with the catalogue's wordings of that event. Empty
  // means "none" only when an artifact of `from` was captured; without
  // `from`, when anything was.
  bool ReadMessageSelection(const YAML::Node& node, Selection& s) {
    if (node["log"] || node["pattern"] || node["sql"] || node["prefilter"]) {
      return reader_.Error(node, "a message selection reads every artifact with the catalogue's patterns: no log, "
                                 "pattern or sql");
    }
    s.kind = Selection::Kind::kLog;
    s.mark = YamlReader::MarkOf(node["message"]);
    if (!reader_.Scalar(node["message"], "message", &s.message)) return false;
    const EventKindRow* kind = FindEventKind(s.message);
    if (!kind) {
      std::vector<std::string_view> names;
      for (const auto& row : EventKinds()) names.push_back(row.name);
      return reader_.Error(node["message"], "unknown event kind '" + s.message + "' (common/event_kinds.cc)" +
                                                DidYouMean(s.message, names));
    }
    if (node["where"] && !ReadWhere(node["where"], kind, &s.where)) return false;
    if (node["not_also"] && !ReadOtherKinds(node["not_also"], s)) return false;
    if (node["from"] && !ReadRuleArtifacts(reader_, node["from"], "from", &s.from)) return false;
    FillMessagePatterns(s);
    if (s.patterns.empty() && kind->journal_events.empty()) {
      return reader_.Error(node["message"], "no catalogue entry says " + s.message +
                                                (s.where.empty() ? "" : " with those fields") + " (messages/)");
    }
    return true;
  }

  std::vector<std::string> SelectionNames() const {
    std::vector<std::string> names;
    for (const auto& s : rule_.selections) names.push_back(s.name);
    return names;
  }

  // Parses the condition in `node` into *out; "" leaves it null.
  bool ReadCondition(const YAML::Node& node, std::string* text, std::shared_ptr<const Condition>* out) {
    if (!reader_.Scalar(node, "a condition", text)) return false;
    return ReadConditionText(node, *text, out);
  }

  // `text` as a condition; an error points into `node`.
  bool ReadConditionText(const YAML::Node& node, const std::string& text, std::shared_ptr<const Condition>* out) {
    std::vector<std::string> names = SelectionNames();
    ConditionError error;
    auto c = ParseCondition(text, &names, &error);
    if (!c) return reader_.ErrorAt(ValueMark(node, error.offset), error.message);
    *out = std::make_shared<const Condition>(std::move(*c));
    return true;
  }

  bool ReadOutcomes(const YAML::Node& node) {
    if (!node.IsSequence() || node.size() == 0) return reader_.Error(node, "outcomes must be a non-empty list");
    for (const auto& item : node) {
      Outcome o;
      std::string result;
      o.mark = YamlReader::MarkOf(item);
      if (!reader_.Fields(item, "an outcome",
                          {"when", "result", "confidence", "severity", "summary", "evidence", "catalog", "history"},
                          {"result"}) ||
          !reader_.Choice(item["result"], "result", {"fail", "warn", "pass"}, &result)) {
        return false;
      }
      o.result = *gpuf::Parse<RuleOutcome>(result);
      if (item["when"] && !ReadCondition(item["when"], &o.when, &o.condition)) return false;
      bool finding = o.result != RuleOutcome::kPass;
      if (!finding && item["confidence"]) return reader_.Error(item, "a pass outcome has no confidence");
      if (finding && !item["summary"]) return reader_.Error(item, "a fail or warn outcome needs a summary");
      if (finding != static_cast<bool>(item["catalog"])) {
        return reader_.Error(item, finding ? "a fail or warn outcome cites the catalog entry it follows (catalog)"
                                           : "a pass outcome has no catalog entry");
      }
      if (item["catalog"] && !reader_.Scalar(item["catalog"], "catalog", &o.catalog)) return false;
      if (item["history"]) {
        std::string flag;
        if (!reader_.Choice(item["history"], "history", {"true"}, &flag)) return false;
        if (!finding) return reader_.Error(item["history"], "only a fail or warn outcome can be history");
        o.history = true;
      }
      if (item["confidence"] && !reader_.Word(item["confidence"], "confidence", &o.confidence)) {
        return false;
      }
      if (item["severity"] && !reader_.Word(item["severity"], "severity", &o.severity)) {
        return false;
      }
      if (item["summary"] && !ReadTemplate(item["summary"], &o.summary)) return false;
      if (item["summary"] && !CheckSummaryFields(item["summary"], o)) return false;
      if (item["evidence"] && !ReadEvidenceList(item["evidence"], &o.evidence)) return false;
      rule_.outcomes.push_back(o);
    }
    return true;
  }

  bool ReadTemplate(const YAML::Node& node, std::string* out) {
    if (!reader_.Scalar(node, "summary", out)) return false;
    if (auto error = CheckTemplate(*out, SelectionNames())) {
      return reader_.ErrorAt(ValueMark(node, error->offset), error->message);
    }
    return true;
  }

  // A summary may read fields only of selections its condition guarantees
  // rows for; anything else could render "(none)".
  bool CheckSummaryFields(const YAML::Node& node, const Outcome& o) {
    std::vector<std::string> required;
    if (o.condition) required = RequiredSelections(*o.condition);
    for (const auto& [offset, selection] : TemplateFieldSelections(o.summary)) {
      if (std::find(required.begin(), required.end(), selection) == required.end()) {
        return reader_.ErrorAt(ValueMark(node, offset),
                               "the summary reads '" + selection + "', which the outcome's condition does not require");
      }
    }
    return true;
  }

  bool ReadEvidenceList(const YAML::Node& node, std::vector<std::string>* out) {
    if (!reader_.Strings(node, "evidence", out)) return false;
    for (const auto& name : *out) {
      if (!rule_.FindSelection(name)) return reader_.Error(node, "unknown selection '" + name + "' in evidence");
    }
    return true;
  }

  // `confirms: [{when, text}]`, or as older rules write it, `missing:
  // [{unless, text}]`.
  bool ReadConfirms(const YAML::Node& node, const std::string& key, const std::string& condition_key) {
    if (!node.IsSequence()) return reader_.Error(node, key + " must be a list of {" + condition_key + ", text}");
    for (const auto& item : node) {
      ConfirmingPiece piece;
      if (!reader_.Fields(item, "a confirming piece", {condition_key, "text"}, {condition_key, "text"}) ||
          !ReadCondition(item[condition_key], &piece.when, &piece.condition) ||
          !reader_.Scalar(item["text"], "text", &piece.text)) {
        return false;
      }
      rule_.confirms.push_back(piece);
    }
    return true;
  }

  bool ReadAgainst(const YAML::Node& node) {
    if (!node.IsSequence()) return reader_.Error(node, "against must be a list of {when, effect, text, catalog}");
    for (const auto& item : node) {
      AgainstCheck a;
      std::string effect;
      if (!reader_.Fields(item, "an against entry", {"when", "effect", "text", "catalog"},
                          {"when", "effect", "text", "catalog"}) ||
          !ReadCondition(item["when"], &a.when, &a.condition) ||
          !reader_.Choice(item["effect"], "effect", {"rule-out", "lower"}, &effect) ||
          !reader_.Scalar(item["text"], "text", &a.text) || !reader_.Scalar(item["catalog"], "catalog", &a.catalog)) {
        return false;
      }
      a.effect = *ParseAgainstEffect(effect);
      rule_.against.push_back(a);
    }
    return true;
  }

  // A step is text, or {recover: text} for one that restarts or reboots
  // something (left out where the fault already healed).
  bool ReadRemediation(const YAML::Node& node) {
    if (!node.IsSequence() || node.size() == 0) return reader_.Error(node, "remediation must be a non-empty list of steps");
    for (const auto& item : node) {
      RemediationStep step;
      if (item.IsMap()) {
        if (!reader_.Fields(item, "a remediation step", {"recover"}, {"recover"}) ||
            !reader_.Scalar(item["recover"], "a remediation step", &step.text)) {
          return false;
        }
        step.recover = true;
      } else if (!reader_.Scalar(item, "a remediation step", &step.text)) {
        return false;
      }
      rule_.remediation.push_back(step);
    }
    return true;
  }

  bool ReadExplainedBy(const YAML::Node& node) {
    if (!reader_.Strings(node, "explained_by", &rule_.explained_by)) return false;
    for (const auto& id : rule_.explained_by) {
      if (!IsKebab(id) || id == rule_.id) return reader_.Error(node, "explained_by names another rule's id, not '" + id + "'");
    }
    return true;
  }

  YamlReader reader_;
  Rule rule_;
};

}  // namespace

void FillMessagePatterns(Selection& s) {
  s.sources = {"*"};
  std::string other;  // a line that is also one of s.not_also's events
  for (const std::string& kind : s.not_also) {
    other += (other.empty() ? "" : "|") + AnyWordingOf(ActiveMessages(), kind);
  }
  for (const MessageEntry* e : ActiveMessages().Of(s.message, s.where)) {
    std::string unless = e->unless;
    if (!other.empty()) unless = unless.empty() ? other : "(?:" + unless + ")|" + other;
    s.patterns.push_back({e->pattern, e->id, e->set, unless});
  }
  // A kind the journal classifies and no wording says is only in journals.
  const EventKindRow* kind = FindEventKind(s.message);
  if (s.patterns.empty() && kind && !kind->journal_events.empty()) s.sources = {"journal.*"};
}

Result<Rule> ParseRuleText(const std::string& file, std::string_view text) {
  RuleParser parser(file, text);
  try {
    YAML::Node doc = YAML::Load(std::string(text));
    return parser.Parse(doc);
  } catch (const YAML::Exception& e) {
    parser.reader().ErrorAt({e.mark.line, e.mark.column}, e.msg);
    return parser.reader().status();
  } catch (const std::exception& e) {
    return Status::BadInput(file + ": " + e.what());
  }
}

Result<Rule> ParseRuleFile(const std::string& path) {
  auto text = ReadWholeFile(path, kMaxRuleFileBytes);
  if (!text.ok()) return Status::BadInput(path + ":1: " + text.status().message());
  return ParseRuleText(path, *text);
}

}  // namespace gpuf
