// A journal match as journalctl takes it: terms joined by "+", any of which
// selects an entry; within a term, every FIELD=value must hold. One match
// serves both ends of a journal read: the arguments journalctl filters by
// on the node, and the test that routes each entry it prints to the slices
// it belongs to (journal_splitter.h).
#ifndef GPUF_COMMON_JOURNAL_MATCH_H_
#define GPUF_COMMON_JOURNAL_MATCH_H_

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/journal_slices.h"

namespace gpuf {

struct JournalFieldMatch {
  std::string field;
  std::string value;
  bool operator==(const JournalFieldMatch&) const = default;
};

using JournalTerm = std::vector<JournalFieldMatch>;  // all must hold

struct JournalMatch {
  std::vector<JournalTerm> terms;  // any one selects
};

// What `journalctl -u U` selects for each of the slice's units (the unit's
// own lines, PID 1's and privileged daemons' about it, its core dumps), or
// the slice's field matches.
JournalMatch JournalSliceMatch(const JournalSliceRow& slice);

// What `journalctl -u U` selects for one unit.
JournalMatch JournalUnitMatch(std::string_view unit);

// Every term of every match, each once, in order.
JournalMatch JournalMatchUnion(std::span<const JournalMatch> matches);

// journalctl's positional arguments for the match: "A=1", "B=2", "+", "C=3".
std::vector<std::string> JournalMatchArgs(const JournalMatch& match);

// The fields the match reads, each once.
std::vector<std::string> JournalMatchFields(const JournalMatch& match);

// Whether an entry whose field values `value_of` gives ("" when absent)
// is selected.
bool JournalEntryMatches(const JournalMatch& match, const std::function<std::string_view(std::string_view)>& value_of);

}  // namespace gpuf

#endif  // GPUF_COMMON_JOURNAL_MATCH_H_
