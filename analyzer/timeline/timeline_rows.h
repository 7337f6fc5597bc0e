// The timeline's rows as a renderer takes them: one event with its time,
// boot, source and milestone, and the intervals between milestones.
// timeline_view.h reads them from the database.
#ifndef GPUF_ANALYZER_TIMELINE_TIMELINE_ROWS_H_
#define GPUF_ANALYZER_TIMELINE_TIMELINE_ROWS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

}  // namespace gpuf

#endif  // GPUF_ANALYZER_TIMELINE_TIMELINE_ROWS_H_
