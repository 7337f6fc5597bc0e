// Reading the timeline back: the events of one bundle in time order, either
// the named milestones only or every event, ready for a renderer.
#ifndef GPUF_ANALYZER_TIMELINE_VIEW_H_
#define GPUF_ANALYZER_TIMELINE_VIEW_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/database.h"
#include "common/status.h"
#include "common/vocabulary.h"

namespace gpuf {

struct TimelineRow {
  int64_t time_ns = 0;
  std::optional<int64_t> boot_offset;
  std::optional<int64_t> since_boot_ns;  // time since the start of its boot, when known
  std::string timestamp_desc;
  std::string time_source;
  std::string source;
  std::optional<Milestone> milestone;  // none for an event that is no milestone
  std::string artifact;      // logical name, "" when derived
  std::optional<int64_t> line;
  std::string container_id;
  std::string message;

  // The milestone's word, "" for none.
  std::string_view milestone_name() const { return milestone ? Name(*milestone) : ""; }
};

struct Interval {
  int64_t boot_offset = 0;
  std::string name;
  double seconds = 0;
};

// Hands each row to `row` in time order, without holding them: every event
// of a bundle is millions of rows. Stops at the first error `row` returns.
Status ForEachTimelineRow(Database& db, int64_t bundle_id, bool milestones_only,
                          const std::function<Status(const TimelineRow&)>& row);
// All rows at once: for the milestones, a few dozen.
Result<std::vector<TimelineRow>> ReadTimeline(Database& db, int64_t bundle_id, bool milestones_only);
Result<std::vector<Interval>> ReadIntervals(Database& db, int64_t bundle_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_VIEW_H_
