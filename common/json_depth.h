// How deep a JSON text nests its arrays and objects, read byte by byte
// without building anything: nlohmann's parser does not recurse, but its
// dump() and a reader walking the DOM do, so a document nested a million
// levels deep (a hostile server's answer, a hostile bundle) must be refused
// before it is built or written out.
#ifndef GPUF_COMMON_JSON_DEPTH_H_
#define GPUF_COMMON_JSON_DEPTH_H_

#include <string_view>

namespace gpuf {

// Deeper than any Kubernetes object or query API answer.
inline constexpr int kMaxJsonDepth = 64;

// The deepest nesting of '[' and '{' in `text`; brackets inside strings do
// not count. Stops counting at `stop_at`: what matters is whether it is too deep.
int JsonNestingDepth(std::string_view text, int stop_at = kMaxJsonDepth + 1);

}  // namespace gpuf

#endif  // GPUF_COMMON_JSON_DEPTH_H_
