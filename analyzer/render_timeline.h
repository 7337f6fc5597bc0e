// Renders timeline rows for `gpuforensics timeline`: text for people,
// JSON Lines and CSV for Timesketch and spreadsheets. The JSON and CSV
// fields (datetime, timestamp_desc, message first) are what Timesketch
// imports as is.
#ifndef GPUF_ANALYZER_RENDER_TIMELINE_H_
#define GPUF_ANALYZER_RENDER_TIMELINE_H_

#include <string>
#include <vector>

#include "analyzer/display_zone.h"
#include "analyzer/timeline_view.h"

namespace gpuf {

std::string RenderTimelineText(const std::vector<TimelineRow>& rows, const DisplayZone& zone);
std::string RenderTimelineJsonl(const std::vector<TimelineRow>& rows);
std::string RenderTimelineCsv(const std::vector<TimelineRow>& rows);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_TIMELINE_H_
