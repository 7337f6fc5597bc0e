#include "cli/suggest.h"

#include "common/edit_distance.h"

namespace gpuf {

std::string ClosestName(std::string_view typo, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 3;  // farther than two edits is not a typo
  for (const auto& c : candidates) {
    if (!typo.empty() && c.substr(0, typo.size()) == typo) return c;
    size_t d = EditDistance(typo, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace gpuf
