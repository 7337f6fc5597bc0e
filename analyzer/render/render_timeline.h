// Renders timeline rows for `gpuforensics timeline`: text for people,
// JSON Lines and CSV for Timesketch and spreadsheets. The JSON and CSV
// fields (datetime, timestamp_desc, message first) are what Timesketch
// imports as is.
#ifndef GPUF_ANALYZER_RENDER_RENDER_TIMELINE_H_
#define GPUF_ANALYZER_RENDER_RENDER_TIMELINE_H_

#include <string>

#include "analyzer/render/display_zone.h"
#include "analyzer/timeline/timeline_rows.h"

namespace gpuf {

// One row as a line of each format, its newline included; CSV has a header.
std::string TimelineTextLine(const TimelineRow& r, const DisplayZone& zone);
std::string TimelineJsonLine(const TimelineRow& r);
std::string TimelineCsvLine(const TimelineRow& r);
extern const char kTimelineCsvHeader[];

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_TIMELINE_H_
