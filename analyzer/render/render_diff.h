// Renders a BundleDiff as text (for a terminal), JSON (schema/diff.schema.json)
// or Markdown (to paste into a ticket). Text and Markdown show the facts that
// differ and count the ones that are the same, unless show_all; JSON always
// carries every fact with its "same" flag. Times are shown in `zone`; JSON
// times are RFC 3339 UTC.
#ifndef GPUF_ANALYZER_RENDER_RENDER_DIFF_H_
#define GPUF_ANALYZER_RENDER_RENDER_DIFF_H_

#include <string>

#include "analyzer/diff/diff_result.h"
#include "analyzer/render/display_zone.h"

namespace gpuf {

inline constexpr int kDiffJsonVersion = 1;

struct DiffRenderOptions {
  bool show_all = false;
  DisplayZone zone;
};

std::string RenderDiffText(const BundleDiff& diff, const DiffRenderOptions& options);
std::string RenderDiffJson(const BundleDiff& diff);
std::string RenderDiffMarkdown(const BundleDiff& diff, const DiffRenderOptions& options);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_DIFF_H_
