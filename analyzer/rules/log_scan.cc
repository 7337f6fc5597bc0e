#include "analyzer/rules/log_scan.h"

#include <algorithm>
#include <optional>
#include <set>

#include "analyzer/load/member_loaders.h"
#include "common/time_format.h"
#include "formats/pattern_options.h"

namespace gpuf {

namespace {

// "3,7,12": an SQL list of the artifacts a query reads.
std::string IdList(const std::map<int64_t, LogScanner::Applicable>& by_artifact) {
  std::string out;
  for (const auto& [id, unused] : by_artifact) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

// A container log line as written, CRI header included, where the loader
// kept the member's lines: the evidence shows it rather than the message.
constexpr char kLineAsWritten[] =
    "SELECT text FROM artifact_lines WHERE artifact_id = ? AND stream IN ('content', 'stdout', 'stderr') "
    "AND line = ? LIMIT 1";

// The time an untimed row's line starts with, as `kubectl logs
// --timestamps` and CRI log files write it ("2025-03-12T06:26:05.287140933Z
// ..."): another pod's log saved as a file; nullopt for any other line.
std::optional<int64_t> LeadingStamp(std::string_view text) {
  size_t end = text.find(' ');
  if (end < 20 || end > 35 || text[4] != '-' || text[10] != 'T') return std::nullopt;
  auto ns = ParseRfc3339(text.substr(0, end));
  return ns.ok() ? std::optional<int64_t>(*ns) : std::nullopt;
}

// A scanned row: artifact, line, time, and the matched text, or the line as
// written (read for the rows that matched only) when the text is a part of it.
SelectionRow RecordOf(Statement& row, Statement* as_written) {
  SelectionRow record;
  record.artifact_id = row.ColumnInt(0);
  record.line = row.ColumnInt(1);
  if (!row.ColumnIsNull(2)) record.time_ns = row.ColumnInt(2);
  if (!record.time_ns) record.time_ns = LeadingStamp(row.ColumnView(3));
  if (as_written) {
    as_written->Bind(1, record.artifact_id).Bind(2, record.line);
    if (as_written->Step()) record.text = std::string(as_written->ColumnView(0));
    as_written->Reset();
  }
  if (record.text.empty()) record.text = std::string(row.ColumnView(3));
  return record;
}

}  // namespace

// FilteredRE2 over a group of patterns: its ids index `patterns`.
struct LogScanner::Prefilter {
  re2::FilteredRE2 filter{3};
  std::vector<std::string> atoms;      // lowercased, as FilteredRE2 returns them
  std::vector<int> non_ascii_atoms;    // counted as present: ASCII folding cannot find them
  std::unique_ptr<RE2::Set> atom_set;  // the ASCII atoms; its index i is ascii_atoms[i]
  std::vector<int> ascii_atoms;
};

namespace {

// A set of literals that ignores case finds every atom the ASCII-lowered
// line holds (and, with Unicode folding, perhaps a few more: more lines
// through, never fewer). Without the set the atoms are searched one by one.
void CompileAtomSet(const std::vector<std::string>& atoms, std::unique_ptr<RE2::Set>& atom_set,
                    std::vector<int>& ascii_atoms, std::vector<int>& non_ascii_atoms) {
  RE2::Options options = RulePatternOptions();
  options.set_literal(true);
  options.set_case_sensitive(false);
  auto set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
  for (size_t i = 0; i < atoms.size(); ++i) {
    bool ascii = std::all_of(atoms[i].begin(), atoms[i].end(), [](char c) { return (c & 0x80) == 0; });
    if (!ascii) {
      non_ascii_atoms.push_back(static_cast<int>(i));
      continue;
    }
    if (set && set->Add(atoms[i], nullptr) < 0) set.reset();
    ascii_atoms.push_back(static_cast<int>(i));
  }
  if (set && !ascii_atoms.empty() && set->Compile()) atom_set = std::move(set);
}

}  // namespace

LogScanner::LogScanner() = default;
LogScanner::~LogScanner() = default;

void LogScanner::Add(size_t rule, const Selection& selection) {
  // A selection built in code may give its pattern alone; one with neither
  // (a kind no wording says, read from the journal alone) scans nothing.
  std::vector<LinePattern> lines = selection.patterns;
  if (lines.empty() && selection.pattern.empty()) return;
  if (lines.empty()) lines.push_back({selection.pattern, "", {}});
  for (auto& line : lines) {
    auto re = std::make_unique<RE2>(line.text, RulePatternOptions());
    auto unless = line.unless.empty() ? nullptr : std::make_unique<RE2>(line.unless, RulePatternOptions());
    patterns_.push_back({rule, &selection, std::move(line), std::move(re), std::move(unless)});
  }
}

Status LogScanner::Compile() {
  set_ = std::make_unique<RE2::Set>(RulePatternOptions(), RE2::UNANCHORED);
  for (const auto& p : patterns_) {
    std::string error;
    if (set_->Add(p.line.text, &error) < 0) {
      return Status::Internal("adding the pattern of selection '" + p.selection->name + "'", error);
    }
  }
  if (!patterns_.empty() && !set_->Compile()) return Status::Internal("compiling the rule patterns", "RE2 is out of memory");
  stats_.patterns = static_cast<int>(patterns_.size());
  return Status::Ok();
}

Result<const LogScanner::Prefilter*> LogScanner::PrefilterOf(const std::vector<int>& patterns) {
  auto& slot = prefilters_[patterns];
  if (slot) return slot.get();
  auto prefilter = std::make_unique<Prefilter>();
  for (size_t i = 0; i < patterns.size(); ++i) {
    const Pattern& p = patterns_[patterns[i]];
    int id = -1;
    if (prefilter->filter.Add(p.line.text, RulePatternOptions(), &id) != RE2::NoError ||
        id != static_cast<int>(i)) {
      return Status::Internal("adding the pattern of selection '" + p.selection->name + "' to the prefilter");
    }
  }
  prefilter->filter.Compile(&prefilter->atoms);
  CompileAtomSet(prefilter->atoms, prefilter->atom_set, prefilter->ascii_atoms, prefilter->non_ascii_atoms);
  slot = std::move(prefilter);
  return slot.get();
}

LogScanner::Applicable LogScanner::ApplicableTo(const std::string& name) const {
  Applicable applicable;
  for (size_t i = 0; i < patterns_.size(); ++i) {
    const Selection& s = *patterns_[i].selection;
    bool applies = std::any_of(s.sources.begin(), s.sources.end(),
                               [&](const std::string& source) { return ArtifactNameMatches(source, name); });
    if (!applies) continue;
    applicable.patterns.push_back(static_cast<int>(i));
  }
  return applicable;
}

Status LogScanner::Scan(Database& db, const ArtifactIndex& artifacts) {
  if (patterns_.empty()) return Status::Ok();
  // Container logs are the artifacts the loader gave log_lines rows.
  std::set<int64_t> container_logs;
  GPUF_ASSIGN_OR_RETURN(Statement logs, db.Prepare("SELECT DISTINCT artifact_id FROM log_lines"));
  while (logs.Step()) container_logs.insert(logs.ColumnInt(0));
  GPUF_RETURN_IF_ERROR(logs.status());

  std::map<int64_t, Applicable> journal, container, other;
  for (const auto& a : artifacts.artifacts()) {
    if (!a.usable) continue;
    Applicable applicable = ApplicableTo(a.name);
    if (applicable.patterns.empty()) continue;
    GPUF_ASSIGN_OR_RETURN(applicable.prefilter, PrefilterOf(applicable.patterns));
    // Journal slices, and the kernel ring and the kubelet's log file where
    // the loader made journal entries of them (MemberLoaderRow::journal_entries).
    auto& target = LoadsJournalEntries(a.name) ? journal : container_logs.count(a.artifact_id) ? container : other;
    target[a.artifact_id] = std::move(applicable);
  }
  if (!journal.empty()) {
    GPUF_RETURN_IF_ERROR(ScanOrdered(db,
        "SELECT artifact_id, line, realtime_us * 1000, message FROM journal_entries WHERE artifact_id IN (" +
            IdList(journal) + ")", "artifact_id, line", journal, nullptr));
  }
  if (!container.empty()) {
    GPUF_ASSIGN_OR_RETURN(Statement as_written, db.Prepare(kLineAsWritten));
    GPUF_RETURN_IF_ERROR(ScanOrdered(db,
        "SELECT artifact_id, line, time_ns, message FROM log_lines WHERE artifact_id IN (" + IdList(container) + ")",
        "artifact_id, line", container, &as_written));
  }
  if (!other.empty()) {
    GPUF_RETURN_IF_ERROR(ScanQuery(db,
        "SELECT artifact_id, line, NULL, text FROM artifact_lines WHERE artifact_id IN (" + IdList(other) +
            ") ORDER BY artifact_id, stream, line", other, false, nullptr).status());
  }
  return Status::Ok();
}

// The loader writes each artifact's lines in order, so a table's own order
// is nearly always (artifact, line) already, and reading it so spares a sort
// of every line of the journal. When it is not (members stored in another
// order), what that pass matched is undone and the lines are read sorted:
// which matches are kept past the cap depends on the order.
Status LogScanner::ScanOrdered(Database& db, const std::string& select, const std::string& order,
                               const std::map<int64_t, Applicable>& by_artifact, Statement* as_written) {
  auto matches_before = matches_;
  LogScanStats stats_before = stats_;
  GPUF_ASSIGN_OR_RETURN(bool in_order, ScanQuery(db, select + " ORDER BY rowid", by_artifact, true, as_written));
  if (in_order) return Status::Ok();
  matches_ = std::move(matches_before);
  stats_ = stats_before;
  return ScanQuery(db, select + " ORDER BY " + order, by_artifact, false, as_written).status();
}

Result<bool> LogScanner::ScanQuery(Database& db, const std::string& sql,
                                   const std::map<int64_t, Applicable>& by_artifact, bool in_table_order,
                                   Statement* as_written) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  std::pair<int64_t, int64_t> last{INT64_MIN, INT64_MIN};
  while (s.Step()) {
    std::pair<int64_t, int64_t> at{s.ColumnInt(0), s.ColumnInt(1)};
    if (in_table_order && at < last) return false;
    last = at;
    MatchRecord(by_artifact.at(at.first), s, as_written);
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return true;
}

// The atoms are lowercased, so the line is too (ASCII; an atom with other
// bytes counts as present, which lets more lines through, never fewer).
void LogScanner::FindAtomsOneByOne(const Prefilter& prefilter, std::string_view subject) {
  lowered_.assign(subject);
  for (char& c : lowered_) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  for (int i : prefilter.ascii_atoms) {
    if (lowered_.find(prefilter.atoms[i]) != std::string::npos) found_atoms_.push_back(i);
  }
}

// FilteredRE2 leaves the search for its atoms to its caller. Its patterns
// are the applicable ones, so any it lets through will do.
bool LogScanner::MayMatch(const Applicable& applicable, std::string_view subject) {
  const Prefilter& prefilter = *applicable.prefilter;
  found_atoms_ = prefilter.non_ascii_atoms;
  atom_hits_.clear();
  RE2::Set::ErrorInfo info{RE2::Set::kNoError};
  if (prefilter.atom_set &&
      (prefilter.atom_set->Match(subject, &atom_hits_, &info) || info.kind == RE2::Set::kNoError)) {
    for (int hit : atom_hits_) found_atoms_.push_back(prefilter.ascii_atoms[hit]);
  } else if (!prefilter.ascii_atoms.empty()) {
    FindAtomsOneByOne(prefilter, subject);
  }
  std::sort(found_atoms_.begin(), found_atoms_.end());
  prefilter.filter.AllPotentials(found_atoms_, &potentials_);
  return !potentials_.empty();
}

// The row is read in place: most lines match nothing and are never copied.
void LogScanner::MatchRecord(const Applicable& applicable, Statement& row, Statement* as_written) {
  ++stats_.lines;
  std::string_view subject = row.ColumnView(3);
  if (!MayMatch(applicable, subject)) return;
  ++stats_.set_checks;
  std::vector<int> hits;
  RE2::Set::ErrorInfo info{RE2::Set::kNoError};
  if (!set_->Match(subject, &hits, &info)) {
    if (info.kind == RE2::Set::kNoError) return;
    // The set's DFA gave up on this line: try the applicable patterns one by one.
    hits.clear();
    for (int p : applicable.patterns) {
      if (RE2::PartialMatch(subject, *patterns_[p].re)) hits.push_back(p);
    }
  }
  std::sort(hits.begin(), hits.end());
  std::optional<SelectionRow> record;  // read once, for the first kept match
  for (int p : hits) {
    if (!std::binary_search(applicable.patterns.begin(), applicable.patterns.end(), p)) continue;
    const RE2& re = *patterns_[p].re;
    std::vector<re2::StringPiece> groups(re.NumberOfCapturingGroups() + 1);
    if (!re.Match(subject, 0, subject.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) continue;
    const Pattern& pattern = patterns_[p];
    if (pattern.unless && RE2::PartialMatch(subject, *pattern.unless)) continue;
    auto& rows = matches_[{pattern.rule, pattern.selection->name}];
    // Two wordings of one selection on one line: the first one's row.
    if (!rows.empty() && record && rows.back().artifact_id == record->artifact_id && rows.back().line == record->line) {
      continue;
    }
    if (rows.size() >= kMaxMatchesPerSelection) {
      ++stats_.dropped;
      continue;
    }
    if (!record) record = RecordOf(row, as_written);
    SelectionRow match = *record;
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
      const re2::StringPiece& g = groups[index];
      match.fields.emplace_back(name, g.data() ? std::optional<std::string>(std::string(g.data(), g.size())) : std::nullopt);
    }
    for (const auto& [name, value] : pattern.line.set) match.fields.emplace_back(name, value);
    if (!pattern.line.entry.empty()) match.fields.emplace_back("message", pattern.line.entry);
    rows.push_back(std::move(match));
    ++stats_.matches;
  }
}

const std::vector<SelectionRow>& LogScanner::Matches(size_t rule, const std::string& selection) const {
  static const std::vector<SelectionRow> kNone;
  auto it = matches_.find({rule, selection});
  return it == matches_.end() ? kNone : it->second;
}

}  // namespace gpuf
