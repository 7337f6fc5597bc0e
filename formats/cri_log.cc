#include "formats/cri_log.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

using nlohmann::json;

struct Stamp {
  int64_t ns = 0;
  int offset_seconds = 0;
};

// A warning quotes at most this much of the offending text.
std::string Quote(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out = "'" + std::string(text.substr(0, kMax));
  if (text.size() > kMax) out += "...";
  return out + "'";
}

std::optional<Stamp> ParseStamp(std::string_view text) {
  auto ns = ParseRfc3339(text);
  if (!ns.ok()) return std::nullopt;
  Stamp stamp{*ns, 0};
  char last = text.back();
  if (last != 'Z' && last != 'z') {
    // ParseRfc3339 accepted it, so it ends in +hh:mm or -hh:mm.
    std::string_view zone = text.substr(text.size() - 6);
    int hours = (zone[1] - '0') * 10 + (zone[2] - '0');
    int minutes = (zone[4] - '0') * 10 + (zone[5] - '0');
    stamp.offset_seconds = (zone[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  }
  return stamp;
}

}  // namespace

// One line of a pod log, parsed: a whole line or a piece of one.
struct CriFragment {
  int line = 0;
  Stamp stamp;
  std::string_view stream;
  std::string text;
  bool ends_line = true;
};

namespace {

// "<time> <stream> <tag>[:<more tags>] <text>"; the tag list is
// colon-separated for forward compatibility, as kubelet reads it.
std::optional<CriFragment> ParseCriLine(int number, std::string_view line, std::string* error) {
  size_t sp1 = line.find(' ');
  auto stamp = ParseStamp(line.substr(0, sp1));
  if (!stamp) {
    *error = "bad CRI log time " + Quote(line.substr(0, sp1));
    return std::nullopt;
  }
  if (sp1 == std::string_view::npos) {
    *error = "no stream after the time";
    return std::nullopt;
  }
  size_t sp2 = line.find(' ', sp1 + 1);
  std::string_view stream =
      line.substr(sp1 + 1, sp2 == std::string_view::npos ? sp2 : sp2 - sp1 - 1);
  if (stream != "stdout" && stream != "stderr") {
    *error = "unknown stream " + Quote(stream);
    return std::nullopt;
  }
  if (sp2 == std::string_view::npos) {
    *error = "no P/F tag after the stream";
    return std::nullopt;
  }
  size_t sp3 = line.find(' ', sp2 + 1);
  std::string_view tags = line.substr(sp2 + 1, sp3 == std::string_view::npos ? sp3 : sp3 - sp2 - 1);
  std::string_view tag = tags.substr(0, tags.find(':'));
  if (tag != "P" && tag != "F") {
    *error = "unknown log tag " + Quote(tags);
    return std::nullopt;
  }
  CriFragment f;
  f.line = number;
  f.stamp = *stamp;
  f.stream = stream;
  f.ends_line = tag == "F";
  if (sp3 != std::string_view::npos) f.text = std::string(line.substr(sp3 + 1));
  return f;
}

std::string_view StreamName(const std::string& s) {
  if (s == "stdout") return "stdout";
  if (s == "stderr") return "stderr";
  return {};
}

std::optional<CriFragment> ParseDockerJsonLine(int number, std::string_view line, std::string* error) {
  json doc = json::parse(line.begin(), line.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    *error = "not a docker json-file line";
    return std::nullopt;
  }
  auto log = doc.find("log");
  auto stream = doc.find("stream");
  auto time = doc.find("time");
  if (log == doc.end() || !log->is_string() || stream == doc.end() || !stream->is_string() ||
      time == doc.end() || !time->is_string()) {
    *error = "docker json-file line without string log, stream and time";
    return std::nullopt;
  }
  std::string time_text = time->get<std::string>();
  auto stamp = ParseStamp(time_text);
  if (!stamp) {
    *error = "bad docker json-file time " + Quote(time_text);
    return std::nullopt;
  }
  std::string stream_text = stream->get<std::string>();
  std::string_view name = StreamName(stream_text);
  if (name.empty()) {
    *error = "unknown stream " + Quote(stream_text);
    return std::nullopt;
  }
  CriFragment f;
  f.line = number;
  f.stamp = *stamp;
  f.stream = name;
  f.text = log->get<std::string>();
  f.ends_line = !f.text.empty() && f.text.back() == '\n';
  if (f.ends_line) f.text.pop_back();
  return f;
}

}  // namespace

void CriLogReader::Line(int number, std::string_view line) {
  if (line.empty()) {
    warnings_.push_back({number, "empty line"});
    return;
  }
  std::string error;
  auto fragment = line.front() == '{' ? ParseDockerJsonLine(number, line, &error) : ParseCriLine(number, line, &error);
  if (!fragment) {
    warnings_.push_back({number, error});
    return;
  }
  Join(std::move(*fragment));
  // A record is handed over once complete and once every record begun
  // before it is: the other stream may hold a partial line open.
  while (!records_.empty() && !IsOpen(first_)) {
    record_(std::move(records_.front()));
    records_.pop_front();
    ++first_;
  }
}

void CriLogReader::End() {
  for (CriLogRecord& r : records_) record_(std::move(r));
  first_ += records_.size();
  records_.clear();
  stdout_.reset();
  stderr_.reset();
}

bool CriLogReader::IsOpen(size_t index) const { return stdout_ == index || stderr_ == index; }

// Joins P fragments with the following fragments of the same stream.
void CriLogReader::Join(CriFragment f) {
  std::optional<size_t>& open = f.stream == "stdout" ? stdout_ : stderr_;
  if (open) {
    CriLogRecord& r = records_[*open - first_];
    r.message += f.text;
    r.partial = !f.ends_line;
  } else {
    CriLogRecord r;
    r.line = f.line;
    r.time_ns = f.stamp.ns;
    r.utc_offset_seconds = f.stamp.offset_seconds;
    r.stream = std::string(f.stream);
    r.message = std::move(f.text);
    r.partial = !f.ends_line;
    records_.push_back(std::move(r));
    open = first_ + records_.size() - 1;
  }
  if (f.ends_line) open.reset();
}

ParsedCriLog ParseCriLog(std::string_view text) {
  ParsedCriLog out;
  // A record a line at most: the vector is not regrown (and its records
  // moved) a dozen times on the way to a large log's 185k.
  out.records.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  CriLogReader reader([&](CriLogRecord&& r) { out.records.push_back(std::move(r)); });
  ForEachLine(text, [&](int number, std::string_view line) { reader.Line(number, line); });
  reader.End();
  out.warnings = std::move(reader.warnings());
  return out;
}

ParsedCriLog ParseCrictlTimestampedLogs(std::string_view text) {
  ParsedCriLog out;
  ForEachLine(text, [&](int number, std::string_view line) {
    size_t space = line.find(' ');
    auto stamp = line.empty() ? std::nullopt : ParseStamp(line.substr(0, space));
    if (!stamp) {
      out.warnings.push_back({number, "no crictl log time at the start of " + Quote(line)});
      return;
    }
    CriLogRecord r;
    r.line = number;
    r.time_ns = stamp->ns;
    r.utc_offset_seconds = stamp->offset_seconds;
    if (space != std::string_view::npos) r.message = std::string(line.substr(space + 1));
    out.records.push_back(std::move(r));
  });
  return out;
}

}  // namespace gpuf
