// One `where:` test of a rule's message selection on a field of its rows
// (rules/README.md, "Message selections"):
//   {reason: lib_mismatch}        the value
//   {code: ['79', '48']}          one of the values
//   {code: {not: ['13', '31']}}   none of them (a row without the field passes)
//   {code: null}                  no such field
//   {code: {not: null}}           the field present
// The catalogue picks its entries with the same tests, on the fields an
// entry sets.
#ifndef GPUF_FORMATS_FIELD_FILTER_H_
#define GPUF_FORMATS_FIELD_FILTER_H_

#include <optional>
#include <string>
#include <vector>

namespace gpuf {

struct FieldFilter {
  std::string field;
  std::vector<std::string> values;  // one of these; empty: the field is absent
  bool negated = false;             // none of these; with no values: the field is present

  // `value`: the row's field, nullopt where it has none.
  bool Holds(const std::optional<std::string>& value) const;
  // "reason=lib_mismatch", "code in 79,48", "code not in 13,31", "code absent", "code present".
  std::string Describe() const;
};

using FieldFilters = std::vector<FieldFilter>;

}  // namespace gpuf

#endif  // GPUF_FORMATS_FIELD_FILTER_H_
