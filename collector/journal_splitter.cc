#include "collector/journal_splitter.h"

#include <algorithm>
#include <cstring>

namespace gpuf {

namespace {

// A scan, not a parser: the static collector links no JSON library fast
// enough for a journal of gigabytes, and an entry is a flat object. Both
// spacings journalctl has printed are read ("k":"v", and "k" : "v" before
// systemd 246).
class FlatJsonScan {
 public:
  explicit FlatJsonScan(std::string_view text) : text_(text) {}

  bool AtEnd() { return SkipSpace() >= text_.size(); }
  bool Take(char c) {
    if (SkipSpace() >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  bool Peek(char c) { return SkipSpace() < text_.size() && text_[at_] == c; }

  // A string at the cursor, as written between its quotes.
  bool RawString(std::string_view& raw) {
    if (!Take('"')) return false;
    const size_t begin = at_;
    while (true) {
      const void* quote = std::memchr(text_.data() + at_, '"', text_.size() - at_);
      if (!quote) return false;
      const size_t end = static_cast<const char*>(quote) - text_.data();
      size_t backslashes = 0;
      while (end - backslashes > begin && text_[end - backslashes - 1] == '\\') ++backslashes;
      at_ = end + 1;
      if (backslashes % 2 == 0) {
        raw = text_.substr(begin, end - begin);
        return true;
      }
    }
  }

  // Any other value: an array (of byte values or strings), a number, null.
  bool SkipValue() {
    std::string_view ignored;
    if (Peek('"')) return RawString(ignored);
    int depth = 0;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '"') {
        if (!RawString(ignored)) return false;
        continue;
      }
      if (c == '[') ++depth;
      if (c == ']') --depth;
      if (depth == 0 && (c == ',' || c == '}')) return true;
      ++at_;
      if (depth < 0) return false;
    }
    return false;
  }

 private:
  size_t SkipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\r')) ++at_;
    return at_;
  }

  std::string_view text_;
  size_t at_ = 0;
};

// A JSON string's escapes resolved (\uXXXX kept as written: no unit or
// identifier the matches name holds one).
void Unescape(std::string_view raw, std::string& out) {
  out.clear();
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out += raw[i];
      continue;
    }
    const char e = raw[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': out += "\\u"; break;
      default: out += e;
    }
  }
}

// Routed lines are written a block at a time, not a line at a time.
constexpr size_t kFlushBytes = 64 * 1024;

}  // namespace

bool ReadJournalJsonFields(std::string_view line, const std::vector<std::string>& fields,
                           std::vector<std::string>& values) {
  values.resize(fields.size());
  for (auto& v : values) v.clear();
  FlatJsonScan scan(line);
  if (!scan.Take('{')) return false;
  if (scan.Take('}')) return scan.AtEnd();
  std::string_view key, value;
  while (true) {
    if (!scan.RawString(key) || !scan.Take(':')) return false;
    auto wanted = std::find(fields.begin(), fields.end(), key);
    if (wanted != fields.end() && scan.Peek('"')) {
      if (!scan.RawString(value)) return false;
      Unescape(value, values[wanted - fields.begin()]);
    } else if (!scan.SkipValue()) {
      return false;
    }
    if (scan.Take(',')) continue;
    return scan.Take('}') && scan.AtEnd();
  }
}

JournalSplitter::JournalSplitter(std::vector<Slice> slices)
    : slices_(std::move(slices)), pending_(slices_.size()) {
  for (const auto& slice : slices_) {
    for (auto& field : JournalMatchFields(slice.match)) {
      if (std::find(fields_.begin(), fields_.end(), field) == fields_.end()) fields_.push_back(field);
    }
  }
}

Status JournalSplitter::Write(std::string_view bytes) {
  while (!bytes.empty()) {
    const size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      partial_.append(bytes);
      break;
    }
    if (partial_.empty()) {
      (void)Route(bytes.substr(0, newline + 1));
    } else {
      partial_.append(bytes.substr(0, newline + 1));
      (void)Route(partial_);
      partial_.clear();
    }
    bytes.remove_prefix(newline + 1);
  }
  return first_error_;
}

Status JournalSplitter::Finish() {
  if (!partial_.empty()) (void)Route(partial_);
  partial_.clear();
  for (size_t i = 0; i < slices_.size(); ++i) Flush(i);
  return first_error_;
}

void JournalSplitter::Flush(size_t slice) {
  if (pending_[slice].empty()) return;
  Status written = slices_[slice].sink->Write(pending_[slice]);
  if (!written.ok() && first_error_.ok()) first_error_ = written;
  pending_[slice].clear();
}

Status JournalSplitter::Route(std::string_view line) {
  std::string_view entry = line;
  while (!entry.empty() && (entry.back() == '\n' || entry.back() == '\r')) entry.remove_suffix(1);
  bool routed = false;
  if (ReadJournalJsonFields(entry, fields_, values_)) {
    auto value_of = [&](std::string_view field) -> std::string_view {
      auto it = std::find(fields_.begin(), fields_.end(), field);
      return it == fields_.end() ? std::string_view() : std::string_view(values_[it - fields_.begin()]);
    };
    for (size_t i = 0; i < slices_.size(); ++i) {
      if (!JournalEntryMatches(slices_[i].match, value_of)) continue;
      routed = true;
      pending_[i].append(line);
      if (pending_[i].size() >= kFlushBytes) Flush(i);
    }
  }
  if (!routed) ++unrouted_lines_;
  return first_error_;
}

}  // namespace gpuf
