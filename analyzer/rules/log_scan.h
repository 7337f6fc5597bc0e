// The log side of the rule engine: every log pattern of every rule being
// evaluated, compiled into one RE2::Set and matched in a single pass over
// each log source of the bundle:
//   journal entries (journal.* artifacts)  the MESSAGE, timed by the entry
//   container log lines (log_lines)        the message without its CRI/klog
//                                          header, timed by the record; the
//                                          evidence text is the line as written
//   any other artifact (artifact_lines)    the line, untimed
// A line reaches the set only when RE2's own prefilter (re2::FilteredRE2:
// the literal atoms every match must contain, read from the parsed pattern,
// escapes and case folding included) lets one of the patterns that may apply
// to it through. Each group of patterns that apply to the same artifacts has
// a prefilter of its own: the kubelet's journal is searched for the atoms of
// its 10 patterns, not of all 80. The atoms a line holds are found in one
// pass, by a second set of the atoms as case-insensitive literals. Captures
// are then taken with the matching pattern alone.
//
// Call order: Add (any number), Compile, Scan, then Matches.
#ifndef GPUF_ANALYZER_RULES_LOG_SCAN_H_
#define GPUF_ANALYZER_RULES_LOG_SCAN_H_

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/scan_stats.h"
#include "analyzer/rules/selection_rows.h"
#include "common/status.h"

namespace gpuf {

class LogScanner {
 public:
  // Matches kept per selection; more are counted in stats().dropped.
  static constexpr size_t kMaxMatchesPerSelection = 10000;

  LogScanner();
  ~LogScanner();

  // A log selection of the rule known to the caller as `rule`: each of its
  // patterns (its own, or its message kind's catalogue entries), checked
  // when the rule was read; one with no pattern adds nothing. A line that
  // more than one of them matches is one row, of the first.
  void Add(size_t rule, const Selection& selection);
  // Internal when RE2 refuses the set.
  Status Compile();
  // Reads the usable artifacts some added selection names. Fails when the
  // database does.
  Status Scan(Database& db, const ArtifactIndex& artifacts);

  // The rows of one selection, in source order; empty when none matched.
  const std::vector<SelectionRow>& Matches(size_t rule, const std::string& selection) const;
  const LogScanStats& stats() const { return stats_; }

  struct Prefilter;
  // What applies to one artifact: pattern indices, in order, and the
  // prefilter of that group.
  struct Applicable {
    std::vector<int> patterns;
    const Prefilter* prefilter = nullptr;
  };

 private:
  struct Pattern {
    size_t rule;
    const Selection* selection;
    LinePattern line;  // one of the selection's patterns
    std::unique_ptr<RE2> re;
    std::unique_ptr<RE2> unless;  // null when the line has no `unless`
  };
  Applicable ApplicableTo(const std::string& name) const;
  // A source's lines ordered by artifact and line: `order` is the ORDER BY
  // that guarantees it. `select` reads artifact, line, time and text;
  // `as_written`, when given, finds a matched line as written by artifact
  // and line.
  Status ScanOrdered(Database& db, const std::string& select, const std::string& order,
                     const std::map<int64_t, Applicable>& by_artifact, Statement* as_written);
  // Reads `sql` to the end; false when `in_table_order` and a row came before
  // the one read last.
  Result<bool> ScanQuery(Database& db, const std::string& sql, const std::map<int64_t, Applicable>& by_artifact,
                         bool in_table_order, Statement* as_written);
  void MatchRecord(const Applicable& applicable, Statement& row, Statement* as_written);
  // The prefilter of the group `patterns`, made on first use. Internal when
  // RE2 refuses a pattern.
  Result<const Prefilter*> PrefilterOf(const std::vector<int>& patterns);
  // True when the applicable prefilter lets one of its patterns through for `subject`.
  bool MayMatch(const Applicable& applicable, std::string_view subject);
  // Finds the atoms in `subject` one by one: the way when a prefilter's atom set fails.
  void FindAtomsOneByOne(const Prefilter& prefilter, std::string_view subject);

  std::vector<Pattern> patterns_;
  std::unique_ptr<RE2::Set> set_;
  std::map<std::vector<int>, std::unique_ptr<Prefilter>> prefilters_;  // by their patterns
  std::string lowered_;                  // the line at hand, ASCII-lowercased (reused)
  std::vector<int> atom_hits_, found_atoms_, potentials_;  // reused per line
  std::map<std::pair<size_t, std::string>, std::vector<SelectionRow>> matches_;
  LogScanStats stats_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_LOG_SCAN_H_
