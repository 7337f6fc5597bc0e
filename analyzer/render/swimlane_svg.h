// The boot timeline as a picture: one inline SVG per boot, one lane per
// component of the GPU chain (kernel/driver, nvidia-persistenced,
// containerd, kubelet, each device-plugin container, registration), the
// milestones as marks on a shared axis of seconds since the boot started,
// and the gap between driver-ready and the device plugin's start shaded and
// labelled. Which milestone goes to which lane is a table in the .cc.
//
// The SVG is self-contained (no scripts, no external references); every
// text from the bundle is escaped. Lanes carry ids, prefixed by the boot so
// that several pictures share a page ("boot0-lane-kernel", "-persistenced",
// "-containerd", "-kubelet", "-plugin-<12 hex>", "-registration"; the gap is
// "boot0-gap" with its seconds in data-seconds), so tests can find them.
#ifndef GPUF_ANALYZER_RENDER_SWIMLANE_SVG_H_
#define GPUF_ANALYZER_RENDER_SWIMLANE_SVG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/render/display_zone.h"
#include "analyzer/timeline/timeline_rows.h"

namespace gpuf {

// Boots that have milestones placed in time since their start, the boot at
// capture first.
std::vector<int64_t> SwimlaneBoots(const std::vector<TimelineRow>& milestones);

// The swimlane picture of one boot; "" when the boot has no placeable milestone.
std::string RenderSwimlaneSvg(const std::vector<TimelineRow>& milestones, const std::vector<Interval>& intervals,
                              int64_t boot_offset, const DisplayZone& zone);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_SWIMLANE_SVG_H_
