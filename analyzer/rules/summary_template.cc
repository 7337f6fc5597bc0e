#include "analyzer/rules/summary_template.h"

#include <algorithm>

#include "common/time_format.h"

namespace gpuf {

namespace {

constexpr size_t kMaxValues = 5;

struct Placeholder {
  bool count = false;
  std::string selection;
  std::string field;
};

// "count(x)" or "x.field"; nullopt when it is neither.
std::optional<Placeholder> ParsePlaceholder(std::string_view inner) {
  Placeholder p;
  if (inner.substr(0, 6) == "count(" && inner.size() > 7 && inner.back() == ')') {
    p.count = true;
    p.selection = std::string(inner.substr(6, inner.size() - 7));
    return p;
  }
  size_t dot = inner.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == inner.size()) return std::nullopt;
  p.selection = std::string(inner.substr(0, dot));
  p.field = std::string(inner.substr(dot + 1));
  return p;
}

std::optional<std::string> Value(const SelectionRow& row, const std::string& field) {
  if (field == "text") return row.text;
  if (field == "line") return row.line ? std::optional<std::string>(std::to_string(*row.line)) : std::nullopt;
  if (field == "time") return row.time_ns ? std::optional<std::string>(FormatRfc3339Utc(*row.time_ns)) : std::nullopt;
  return row.Field(field);
}

std::string Render(const Placeholder& p, const SelectionRows& rows) {
  auto it = rows.find(p.selection);
  size_t count = it == rows.end() ? 0 : it->second.size();
  if (p.count) return std::to_string(count);
  std::vector<std::string> values;
  if (it != rows.end()) {
    for (const auto& row : it->second) {
      auto value = Value(row, p.field);
      if (value && std::find(values.begin(), values.end(), *value) == values.end()) values.push_back(*value);
    }
  }
  if (values.empty()) return "(none)";
  std::string out;
  for (size_t i = 0; i < values.size() && i < kMaxValues; ++i) out += (i ? ", " : "") + values[i];
  if (values.size() > kMaxValues) out += ", ... (" + std::to_string(values.size()) + " in all)";
  return out;
}

}  // namespace

std::optional<ConditionError> CheckTemplate(std::string_view text, const std::vector<std::string>& selections) {
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    size_t close = text.find('}', open);
    if (close == std::string_view::npos) return ConditionError{open, "'{' without '}'"};
    auto p = ParsePlaceholder(text.substr(open + 1, close - open - 1));
    if (!p) {
      return ConditionError{open, "a placeholder is {selection.field} or {count(selection)}"};
    }
    if (std::find(selections.begin(), selections.end(), p->selection) == selections.end()) {
      return ConditionError{open, "unknown selection '" + p->selection + "'"};
    }
  }
  return std::nullopt;
}

std::vector<std::pair<size_t, std::string>> TemplateFieldSelections(std::string_view text) {
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    auto p = ParsePlaceholder(text.substr(open + 1, close - open - 1));
    if (p && !p->count) out.emplace_back(open, p->selection);
  }
  return out;
}

std::string RenderTemplate(std::string_view text, const SelectionRows& rows) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find('{', pos);
    size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out += text.substr(pos, open - pos);
    auto p = ParsePlaceholder(text.substr(open + 1, close - open - 1));
    out += p ? Render(*p, rows) : std::string(text.substr(open, close - open + 1));
    pos = close + 1;
  }
  if (pos < text.size()) out += text.substr(pos);
  return out;
}

}  // namespace gpuf
