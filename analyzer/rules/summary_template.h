// Finding summaries written with placeholders over selection rows:
//   {selection.field}   the field's distinct values in row order, comma-separated
//                       (five at most, then "... (N in all)"); fields are named
//                       captures or SQL columns, or text, line and time (RFC 3339)
//   {count(selection)}  how many rows the selection returned
//   {seconds(a, b)}     seconds from a's first timed row to b's (negative when b is earlier)
// A value no row has renders as "(none)".
#ifndef GPUF_ANALYZER_RULES_SUMMARY_TEMPLATE_H_
#define GPUF_ANALYZER_RULES_SUMMARY_TEMPLATE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/rules/condition.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

// nullopt when every placeholder is well formed and names a selection in
// `selections`; otherwise where and what is wrong.
std::optional<ConditionError> CheckTemplate(std::string_view text, const std::vector<std::string>& selections);

// The selections whose fields the template reads ({x.field}, not {count(x)}),
// with the offset of each placeholder.
std::vector<std::pair<size_t, std::string>> TemplateFieldSelections(std::string_view text);

std::string RenderTemplate(std::string_view text, const SelectionRows& rows);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SUMMARY_TEMPLATE_H_
