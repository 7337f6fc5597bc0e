// The boot timeline: every timestamped fact of a loaded bundle merged into
// the events table, with named milestones for the steps of the GPU chain and
// the intervals between them (schema/events.sql, schema/intervals.sql).
//
// Times come from the sources as they are: journal entries in UTC µs (kernel
// lines placed through their boot-relative stamp), CRI log records and crictl
// times with their written offset, socket mtimes, the collection time. A
// time that had to be guessed is also a timeline_warnings row.
#ifndef GPUF_ANALYZER_TIMELINE_TIMELINE_H_
#define GPUF_ANALYZER_TIMELINE_TIMELINE_H_

#include <cstdint>

#include "analyzer/database.h"
#include "common/status.h"

namespace gpuf {

// Whether timeline_warnings is filled: a caller that shows only the events
// (the timeline command) leaves it empty.
enum class TimelineWarnings { kBuild, kSkip };

// Fills events, intervals and timeline_warnings for one loaded bundle.
// Fails only when the database does.
Status BuildTimeline(Database& db, int64_t bundle_id, TimelineWarnings warnings = TimelineWarnings::kBuild);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_TIMELINE_H_
