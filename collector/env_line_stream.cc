#include "collector/env_line_stream.h"

#include <re2/re2.h>

#include "common/byte_pattern.h"

namespace gpuf {

namespace {

// "    - value: S": the column of the item's keys, after "- ".
bool ValueFirstItem(std::string_view line, size_t& key_column) {
  static const RE2 value_first(R"re(^(\s*-\s+)"?value"?\s*:)re", BytePatternOptions());
  re2::StringPiece item;
  if (line.find("value") == std::string_view::npos || !RE2::PartialMatch(line, value_first, &item)) return false;
  key_column = item.size();
  return true;
}

// "      name: X" at `key_column`: the key and value part ("name: X").
bool NameKeyAt(std::string_view line, size_t key_column, std::string& key) {
  static const RE2 name_key(R"re(^(\s*)("?(?:name|key)"?\s*:\s*"?[A-Za-z_][A-Za-z0-9_.\-]*"?\s*,?\s*)$)re",
                            BytePatternOptions());
  re2::StringPiece indent, part;
  if (!RE2::FullMatch(line, name_key, &indent, &part) || indent.size() != key_column) return false;
  key.assign(part.data(), part.size());
  return true;
}

size_t IndentOf(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string_view::npos ? std::string_view::npos : n;
}

}  // namespace

int EnvLineStream::Pass(std::string line, const std::string& ending, const Sink& emit) {
  int count = scrubber_.Line(line);
  emit(line, ending);
  return count;
}

// The scrubber meets the name first, written where the value stands
// ("    - name: X"), then the held lines.
int EnvLineStream::Release(const std::string& name_line, const Sink& emit) {
  std::string name = name_line;
  scrubber_.Line(name);
  std::vector<Held> held;
  held.swap(held_);
  int count = 0;
  for (auto& h : held) count += Pass(std::move(h.text), h.ending, emit);
  return count;
}

int EnvLineStream::Line(std::string line, std::string ending, const Sink& emit) {
  int count = 0;
  if (!held_.empty()) {
    const std::string item_prefix = held_.front().text.substr(0, item_column_);
    std::string key;
    if (NameKeyAt(line, item_column_, key)) {
      count += Release(item_prefix + key, emit);
      return count + Pass(std::move(line), ending, emit);
    }
    const size_t indent = IndentOf(line);
    const bool same_item = indent != std::string_view::npos && indent >= item_column_;
    if (same_item && held_.size() < kMaxHeldLines) {
      held_.push_back({std::move(line), std::move(ending)});
      return 0;
    }
    count += Release(item_prefix + "name: UNNAMED_VALUE", emit);  // no name: not evidence
  }
  if (ValueFirstItem(line, item_column_)) {
    held_.push_back({std::move(line), std::move(ending)});
    return count;
  }
  return count + Pass(std::move(line), ending, emit);
}

int EnvLineStream::Finish(const Sink& emit) {
  if (held_.empty()) return 0;
  return Release(held_.front().text.substr(0, item_column_) + "name: UNNAMED_VALUE", emit);
}

}  // namespace gpuf
