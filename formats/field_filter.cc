#include "formats/field_filter.h"

#include <re2/re2.h>

#include <algorithm>

namespace gpuf {

bool FieldFilter::Holds(const std::optional<std::string>& value) const {
  bool matches;
  if (pattern) {
    matches = value && RE2::PartialMatch(*value, *pattern);
  } else {
    matches = values.empty() ? !value : value && std::find(values.begin(), values.end(), *value) != values.end();
  }
  return matches != negated;
}

std::string FieldFilter::Describe() const {
  if (pattern) return field + (negated ? " not matching " : " matching ") + pattern->pattern();
  if (values.empty()) return field + (negated ? " present" : " absent");
  if (values.size() == 1 && !negated) return field + "=" + values[0];
  std::string list;
  for (const auto& v : values) list += (list.empty() ? "" : ",") + v;
  return field + (negated ? " not in " : " in ") + list;
}

}  // namespace gpuf
