// One `where:` test of a rule's message selection on a field of its rows
// (rules/README.md, "Message selections"):
//   {reason: lib_mismatch}        the value
//   {code: ['79', '48']}          one of the values
//   {code: {not: ['13', '31']}}   none of them (a row without the field passes)
//   {code: null}                  no such field
//   {code: {not: null}}           the field present
//   {why: {matches: 'nvidia\.com/|NVML'}}  the field present and the RE2 found in it
//   {why: {not: {matches: ...}}}  ... not found in it, or the field absent
// The catalogue picks its entries with the same tests, on the fields an
// entry sets.
#ifndef GPUF_FORMATS_FIELD_FILTER_H_
#define GPUF_FORMATS_FIELD_FILTER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpuf {

struct FieldFilter {
  std::string field;
  std::vector<std::string> values;  // one of these; empty: the field is absent
  bool negated = false;             // none of these; with no values: the field is present
  // Instead of values: the field present and this RE2 found in it.
  std::shared_ptr<const re2::RE2> pattern{};

  // `value`: the row's field, nullopt where it has none.
  bool Holds(const std::optional<std::string>& value) const;
  // "reason=lib_mismatch", "code in 79,48", "code not in 13,31", "code absent", "code present",
  // "why matching RE", "why not matching RE".
  std::string Describe() const;
};

using FieldFilters = std::vector<FieldFilter>;

}  // namespace gpuf

#endif  // GPUF_FORMATS_FIELD_FILTER_H_
