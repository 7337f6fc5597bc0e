// The rows of an event kind the journal itself classifies (systemd's unit
// starts and failures, its reloads, the kubelet's device-plugin lines):
// journal entries whose `event` the kind lists (EventKindRow::journal_events),
// in every journal artifact of the bundle, each entry once.
#ifndef GPUF_ANALYZER_RULES_JOURNAL_EVENT_ROWS_H_
#define GPUF_ANALYZER_RULES_JOURNAL_EVENT_ROWS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/selection_rows.h"
#include "common/event_kinds.h"
#include "common/status.h"

namespace gpuf {

// One row per entry, in time order: its line and time, the entry's subject
// as the kind's first field, and `message`, the journal's name of the event.
// An entry two journal slices both hold (journal_copies) counts once.
Result<std::vector<SelectionRow>> JournalEventRows(Database& db, int64_t bundle_id, const EventKindRow& kind);

// The rows of each kind named, read once for every rule that asks.
using JournalKindRows = std::map<std::string, std::vector<SelectionRow>>;
Result<JournalKindRows> LoadJournalKindRows(Database& db, int64_t bundle_id, const std::set<std::string>& kinds);

// Adds `more` to `rows`, leaving out a row of a line `rows` has already:
// a journal entry a catalogue wording also matched is one event.
void MergeRowsByLine(const std::vector<SelectionRow>& more, std::vector<SelectionRow>& rows);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_JOURNAL_EVENT_ROWS_H_
