// Reading the timeline back: the events of one bundle in time order, either
// the named milestones only or every event, ready for a renderer.
#ifndef GPUF_ANALYZER_TIMELINE_TIMELINE_VIEW_H_
#define GPUF_ANALYZER_TIMELINE_TIMELINE_VIEW_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/timeline/timeline_rows.h"
#include "common/status.h"

namespace gpuf {

// Hands each row to `row` in time order, without holding them: every event
// of a bundle is millions of rows. Stops at the first error `row` returns.
Status ForEachTimelineRow(Database& db, int64_t bundle_id, bool milestones_only,
                          const std::function<Status(const TimelineRow&)>& row);
// All rows at once: for the milestones, a few dozen.
Result<std::vector<TimelineRow>> ReadTimeline(Database& db, int64_t bundle_id, bool milestones_only);
Result<std::vector<Interval>> ReadIntervals(Database& db, int64_t bundle_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_TIMELINE_VIEW_H_
