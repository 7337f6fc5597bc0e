#include "analyzer/rules/summary_template.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "common/time_format.h"

namespace gpuf {

namespace {

constexpr size_t kMaxValues = 5;

struct Placeholder {
  bool count = false;
  std::string selection;
  std::string field;
  std::string until;  // seconds(selection, until)
};

// "count(x)", "seconds(x, y)" or "x.field"; nullopt when it is none.
std::optional<Placeholder> ParsePlaceholder(std::string_view inner) {
  Placeholder p;
  if (inner.substr(0, 6) == "count(" && inner.size() > 7 && inner.back() == ')') {
    p.count = true;
    p.selection = std::string(inner.substr(6, inner.size() - 7));
    return p;
  }
  if (inner.substr(0, 8) == "seconds(" && inner.back() == ')') {
    std::string_view args = inner.substr(8, inner.size() - 9);
    size_t comma = args.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    std::string_view from = args.substr(0, comma), until = args.substr(comma + 1);
    while (!until.empty() && until.front() == ' ') until.remove_prefix(1);
    if (from.empty() || until.empty()) return std::nullopt;
    p.selection = std::string(from);
    p.until = std::string(until);
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

const SelectionRow* FirstTimed(const SelectionRows& rows, const std::string& selection) {
  auto it = rows.find(selection);
  if (it == rows.end()) return nullptr;
  for (const auto& row : it->second) {
    if (row.time_ns) return &row;
  }
  return nullptr;
}

// Seconds from the first timed row of p.selection to that of p.until, to
// the precision of the coarser stamp (microseconds under a millisecond,
// milliseconds under a tenth of a second, tenths above): two lines stamped
// to the second within one are "under 1" apart, not "0.000".
std::string RenderSeconds(const Placeholder& p, const SelectionRows& rows) {
  const SelectionRow* from = FirstTimed(rows, p.selection);
  const SelectionRow* until = FirstTimed(rows, p.until);
  if (!from || !until) return "(none)";
  const int64_t gap_ns = *until->time_ns - *from->time_ns;
  const int64_t precision = std::max<int64_t>(std::max(TimePrecisionNs(*from), TimePrecisionNs(*until)), 1000);
  int decimals = 0;
  for (int64_t p10 = precision; p10 < 1'000'000'000; p10 *= 10) ++decimals;
  const int64_t magnitude = gap_ns < 0 ? -gap_ns : gap_ns;
  if (magnitude >= 100'000'000) decimals = std::min(decimals, 1);  // tenths are enough
  if (magnitude >= 1'000'000) decimals = std::min(decimals, 3);    // and milliseconds
  char text[48];
  if (gap_ns > -precision && gap_ns < precision) {
    std::snprintf(text, sizeof text, "under %.*f", decimals, static_cast<double>(precision) / 1e9);
  } else {
    std::snprintf(text, sizeof text, "%.*f", decimals, static_cast<double>(gap_ns) / 1e9);
  }
  return text;
}

std::string Render(const Placeholder& p, const SelectionRows& rows) {
  if (!p.until.empty()) return RenderSeconds(p, rows);
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
      return ConditionError{open, "a placeholder is {selection.field}, {count(selection)} or {seconds(from, until)}"};
    }
    std::vector<std::string> named = {p->selection};
    if (!p->until.empty()) named.push_back(p->until);
    for (const auto& name : named) {
      if (std::find(selections.begin(), selections.end(), name) == selections.end()) {
        return ConditionError{open, "unknown selection '" + name + "'"};
      }
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
    if (p && !p->until.empty()) out.emplace_back(open, p->until);
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
