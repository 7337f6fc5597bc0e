#include "analyzer/rules/journal_event_rows.h"

#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace gpuf {

namespace {

std::string Placeholders(size_t n) {
  std::string list;
  for (size_t i = 0; i < n; ++i) list += i ? ", ?" : "?";
  return list;
}

}  // namespace

Result<std::vector<SelectionRow>> JournalEventRows(Database& db, int64_t bundle_id, const EventKindRow& kind) {
  std::vector<SelectionRow> rows;
  std::vector<std::string_view> events = ListWords(kind.journal_events);
  if (events.empty()) return rows;
  GPUF_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare("SELECT j.artifact_id, j.line, j.realtime_us * 1000, j.message, j.event, j.event_subject "
                 "FROM journal_entries j JOIN artifacts a USING (artifact_id) "
                 "WHERE a.bundle_id = ? AND j.event IN (" + Placeholders(events.size()) + ") "
                 "AND NOT EXISTS (SELECT 1 FROM journal_copies c WHERE c.artifact_id = j.artifact_id "
                 "AND c.line = j.line) "
                 "ORDER BY j.realtime_us, j.artifact_id, j.line"));
  select.Bind(1, bundle_id);
  for (size_t i = 0; i < events.size(); ++i) select.Bind(static_cast<int>(i) + 2, events[i]);
  const std::string subject_field(FirstField(kind));
  while (select.Step()) {
    SelectionRow row;
    row.artifact_id = select.ColumnInt(0);
    row.line = select.ColumnInt(1);
    if (!select.ColumnIsNull(2)) row.time_ns = select.ColumnInt(2);
    row.text = select.ColumnText(3);
    if (!subject_field.empty()) {
      row.fields.emplace_back(subject_field, select.ColumnIsNull(5) ? std::nullopt
                                                                   : std::optional(select.ColumnText(5)));
    }
    row.fields.emplace_back("message", select.ColumnText(4));
    rows.push_back(std::move(row));
  }
  GPUF_RETURN_IF_ERROR(select.status());
  return rows;
}

Result<JournalKindRows> LoadJournalKindRows(Database& db, int64_t bundle_id, const std::set<std::string>& kinds) {
  JournalKindRows by_kind;
  for (const auto& name : kinds) {
    const EventKindRow* kind = FindEventKind(name);
    if (!kind || kind->journal_events.empty()) continue;
    GPUF_ASSIGN_OR_RETURN(by_kind[name], JournalEventRows(db, bundle_id, *kind));
  }
  return by_kind;
}

void MergeRowsByLine(const std::vector<SelectionRow>& more, std::vector<SelectionRow>& rows) {
  std::set<std::pair<int64_t, int64_t>> lines;
  for (const auto& row : rows) {
    if (row.artifact_id && row.line) lines.emplace(*row.artifact_id, *row.line);
  }
  for (const auto& row : more) {
    if (row.artifact_id && row.line && lines.count({*row.artifact_id, *row.line})) continue;
    rows.push_back(row);
  }
}

}  // namespace gpuf
