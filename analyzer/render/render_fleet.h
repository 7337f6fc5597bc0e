// Renders a FleetSummary as text (for a terminal) or JSON (for dashboards and
// scripts: "format": "gpuforensics-fleet", the same counts as the text).
#ifndef GPUF_ANALYZER_RENDER_RENDER_FLEET_H_
#define GPUF_ANALYZER_RENDER_RENDER_FLEET_H_

#include <string>

#include "analyzer/fleet/fleet_summary.h"

namespace gpuf {

inline constexpr int kFleetJsonVersion = 1;

std::string RenderFleetText(const FleetSummary& summary);
std::string RenderFleetJson(const FleetSummary& summary);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_FLEET_H_
