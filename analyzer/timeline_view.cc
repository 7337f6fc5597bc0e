#include "analyzer/timeline_view.h"

namespace gpuf {

Result<std::vector<TimelineRow>> ReadTimeline(Database& db, int64_t bundle_id, bool milestones_only) {
  std::string sql =
      // Each boot's start is looked up once: a subquery per event scanned
      // the events table for every row.
      "WITH boot_starts AS (SELECT boot_offset, min(time_ns) AS start_ns FROM events "
      "  WHERE bundle_id = ?1 AND milestone = 'boot' GROUP BY boot_offset) "
      "SELECT e.time_ns, e.boot_offset, e.time_ns - s.start_ns, "
      "e.timestamp_desc, e.time_source, e.source, coalesce(e.milestone, ''), coalesce(a.name, ''), e.line, "
      "coalesce(e.container_id, ''), e.message "
      "FROM events e LEFT JOIN artifacts a USING (artifact_id) LEFT JOIN boot_starts s ON s.boot_offset = e.boot_offset "
      "WHERE e.bundle_id = ?1";
  // The few milestones come through their partial index and are sorted;
  // ordering by the time index instead would read every event of the bundle.
  sql += milestones_only ? " AND e.milestone IS NOT NULL ORDER BY +e.time_ns, e.event_id"
                         : " ORDER BY e.time_ns, e.event_id";
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.Bind(1, bundle_id);
  std::vector<TimelineRow> rows;
  while (s.Step()) {
    TimelineRow r;
    r.time_ns = s.ColumnInt(0);
    if (!s.ColumnIsNull(1)) r.boot_offset = s.ColumnInt(1);
    if (!s.ColumnIsNull(2)) r.since_boot_ns = s.ColumnInt(2);
    r.timestamp_desc = s.ColumnText(3);
    r.time_source = s.ColumnText(4);
    r.source = s.ColumnText(5);
    r.milestone = s.ColumnText(6);
    r.artifact = s.ColumnText(7);
    if (!s.ColumnIsNull(8)) r.line = s.ColumnInt(8);
    r.container_id = s.ColumnText(9);
    r.message = s.ColumnText(10);
    rows.push_back(std::move(r));
  }
  GPUF_RETURN_IF_ERROR(s.status());
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
