#include "analyzer/timeline/timeline_view.h"

#include "analyzer/timeline/timeline_lines.h"

namespace gpuf {

namespace {

// Every event of the bundle: the stored ones, and the journal and plugin
// lines not stored among them. `tie` orders events of the same nanosecond:
// boots, journal lines, plugin lines, containers, sockets, the collection.
std::string AllEvents() {
  std::string columns(kTimelineLineColumns);
  std::string not_stored =
      " WHERE NOT EXISTS (SELECT 1 FROM events m WHERE m.artifact_id = x.artifact_id AND m.line = x.line)";
  return "SELECT " + columns + ", event_id, "
         "CASE WHEN milestone = $milestone(boot) THEN 0 WHEN milestone = $milestone(collection) THEN 5 "
         "WHEN timestamp_desc LIKE 'Container %' THEN 3 WHEN time_source = 'file_mtime' THEN 4 "
         "WHEN source = 'plugin' THEN 2 ELSE 1 END AS tie FROM events WHERE bundle_id = :bundle "
         "UNION ALL SELECT " + columns + ", NULL, 1 FROM (" + JournalTimelineLines() + ") x" + not_stored +
         " UNION ALL SELECT " + columns + ", NULL, 2 FROM (" + std::string(kPluginTimelineLines) + ") x" + not_stored;
}

}  // namespace

Status ForEachTimelineRow(Database& db, int64_t bundle_id, bool milestones_only,
                          const std::function<Status(const TimelineRow&)>& row) {
  // The few milestones come through their partial index and are sorted.
  std::string events = milestones_only
      ? "SELECT *, 0 AS tie FROM events WHERE bundle_id = :bundle AND milestone IS NOT NULL"
      : AllEvents();
  std::string order = milestones_only ? " ORDER BY +e.time_ns, e.event_id"
                                      : " ORDER BY e.time_ns, e.tie, e.artifact_id, e.line, e.event_id";
  std::string sql =
      // Each boot's start is looked up once: a subquery per event scanned
      // the events table for every row.
      "WITH boot_starts AS (SELECT boot_offset, min(time_ns) AS start_ns FROM events "
      "  WHERE bundle_id = :bundle AND milestone = $milestone(boot) GROUP BY boot_offset) "
      "SELECT e.time_ns, e.boot_offset, e.time_ns - s.start_ns, "
      "e.timestamp_desc, e.time_source, e.source, coalesce(e.milestone, ''), coalesce(a.name, ''), e.line, "
      "coalesce(e.container_id, ''), e.message "
      "FROM (" + events + ") e LEFT JOIN artifacts a USING (artifact_id) "
      "LEFT JOIN boot_starts s ON s.boot_offset = e.boot_offset" + order;
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.BindNamed(":bundle", bundle_id);
  while (s.Step()) {
    TimelineRow r;
    r.time_ns = s.ColumnInt(0);
    if (!s.ColumnIsNull(1)) r.boot_offset = s.ColumnInt(1);
    if (!s.ColumnIsNull(2)) r.since_boot_ns = s.ColumnInt(2);
    r.timestamp_desc = s.ColumnText(3);
    r.time_source = s.ColumnText(4);
    r.source = s.ColumnText(5);
    r.milestone = Parse<Milestone>(s.ColumnText(6));
    r.artifact = s.ColumnText(7);
    if (!s.ColumnIsNull(8)) r.line = s.ColumnInt(8);
    r.container_id = s.ColumnText(9);
    r.message = s.ColumnText(10);
    GPUF_RETURN_IF_ERROR(row(r));
  }
  return s.status();
}

Result<std::vector<TimelineRow>> ReadTimeline(Database& db, int64_t bundle_id, bool milestones_only) {
  std::vector<TimelineRow> rows;
  GPUF_RETURN_IF_ERROR(ForEachTimelineRow(db, bundle_id, milestones_only, [&](const TimelineRow& r) {
    rows.push_back(r);
    return Status::Ok();
  }));
  return rows;
}

Result<std::vector<Interval>> ReadIntervals(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT boot_offset, name, seconds FROM intervals WHERE bundle_id = ? ORDER BY boot_offset DESC, name"));
  s.Bind(1, bundle_id);
  std::vector<Interval> out;
  while (s.Step()) out.push_back({s.ColumnInt(0), s.ColumnText(1), s.ColumnDouble(2)});
  GPUF_RETURN_IF_ERROR(s.status());
  return out;
}

}  // namespace gpuf
