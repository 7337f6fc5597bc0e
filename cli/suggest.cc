#include "cli/suggest.h"

#include <algorithm>

namespace gpuf {

namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

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
