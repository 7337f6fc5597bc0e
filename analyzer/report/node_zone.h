// The node's own time zone as the bundle records it, for `--tz node`
// (analyzer/render/display_zone.h turns the name into a zone).
#ifndef GPUF_ANALYZER_REPORT_NODE_ZONE_H_
#define GPUF_ANALYZER_REPORT_NODE_ZONE_H_

#include <cstdint>
#include <string>

#include "analyzer/database.h"

namespace gpuf {

// The /etc/localtime link target after "zoneinfo/", else /etc/timezone;
// "" when neither was captured.
std::string NodeZoneName(Database& db, int64_t bundle_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_NODE_ZONE_H_
