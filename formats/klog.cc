#include "formats/klog.h"

#include <re2/re2.h>

#include <charconv>
#include <cstdint>
#include <ctime>

#include "common/time_format.h"

namespace gpuf {

namespace {

bool IsLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

bool ValidClock(int month, int day, int hour, int minute, int second) {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 &&
         second <= 60;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

struct Civil {
  int year, month, day, hour, minute, second, microsecond;
};

std::optional<int64_t> LocalToUtcNs(const Civil& c, int utc_offset_seconds) {
  if (!ValidClock(c.month, c.day, c.hour, c.minute, c.second)) return std::nullopt;
  if (c.day > DaysInMonth(c.year, c.month)) return std::nullopt;
  int64_t days =
      DaysFromCivil(c.year, static_cast<unsigned>(c.month), static_cast<unsigned>(c.day));
  int64_t seconds = days * 86400 + c.hour * 3600 + c.minute * 60 + c.second - utc_offset_seconds;
  // Nanoseconds since 1970 fit int64 from 1677 to 2262; a written year
  // outside that is damage, not a time.
  constexpr int64_t kMaxSeconds = INT64_MAX / 1000000000LL - 1;
  if (seconds > kMaxSeconds || seconds < -kMaxSeconds) return std::nullopt;
  return seconds * 1000000000LL + int64_t{c.microsecond} * 1000;
}

// The carrier's calendar year and month as the writer's wall clock showed them.
void CarrierYearMonth(const LineClock& clock, int* year, int* month) {
  std::time_t local =
      static_cast<std::time_t>(FloorDiv(clock.carrier_ns, 1000000000LL) + clock.utc_offset_seconds);
  std::tm tm{};
  gmtime_r(&local, &tm);
  *year = tm.tm_year + 1900;
  *month = tm.tm_mon + 1;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes the body of a Go-quoted string (strconv.Quote). An escape that is
// not Go's is kept as written rather than dropped.
std::string GoUnquote(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'n': out += '\n'; continue;
      case 't': out += '\t'; continue;
      case 'r': out += '\r'; continue;
      case 'a': out += '\a'; continue;
      case 'b': out += '\b'; continue;
      case 'f': out += '\f'; continue;
      case 'v': out += '\v'; continue;
      case '\\':
      case '"':
      case '\'': out += e; continue;
      default: break;
    }
    size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (digits > 0 && i + digits < body.size()) {
      uint32_t value = 0;
      bool ok = true;
      for (size_t k = 1; ok && k <= digits; ++k) {
        int v = HexValue(body[i + k]);
        ok = v >= 0;
        value = value * 16 + static_cast<uint32_t>(v < 0 ? 0 : v);
      }
      if (ok) {
        if (e == 'x') {
          out += static_cast<char>(value);
        } else {
          AppendUtf8(out, value);
        }
        i += digits;
        continue;
      }
    }
    out += '\\';
    out += e;
  }
  return out;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '/';
}

// True when text[pos..] is whitespace and then either the end or "key=".
bool AtFieldBoundary(std::string_view text, size_t pos) {
  if (pos == text.size()) return true;
  if (!IsSpace(text[pos])) return false;
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  if (pos == text.size()) return true;
  size_t key_start = pos;
  while (pos < text.size() && IsKeyChar(text[pos])) ++pos;
  return pos > key_start && pos < text.size() && text[pos] == '=';
}

// Reads a quoted string starting at text[pos] == '"'. The closing quote is the
// first unescaped one at a field boundary; failing that, the first one.
bool ReadQuoted(std::string_view text, size_t& pos, std::string* value) {
  size_t first_close = std::string_view::npos;
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] != '"') continue;
    if (first_close == std::string_view::npos) first_close = i;
    if (AtFieldBoundary(text, i + 1)) {
      first_close = i;
      break;
    }
  }
  if (first_close == std::string_view::npos) return false;
  *value = GoUnquote(text.substr(pos + 1, first_close - pos - 1));
  pos = first_close + 1;
  return true;
}

// klog writes strings holding newlines as key=<\n\tline\n\tline\n >.
bool ReadMultiLine(std::string_view text, size_t& pos, std::string* value) {
  if (text.compare(pos, 2, "<\n") != 0) return false;
  size_t end = text.find("\n >", pos + 1);
  std::string_view body =
      text.substr(pos + 2, end == std::string_view::npos ? std::string_view::npos : end - pos - 2);
  value->clear();
  size_t start = 0;
  while (start <= body.size()) {
    size_t nl = body.find('\n', start);
    std::string_view line = body.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (!line.empty() && line.front() == '\t') line.remove_prefix(1);
    if (start > 0) *value += '\n';
    *value += line;
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  pos = end == std::string_view::npos ? text.size() : end + 3;
  return true;
}

// An unquoted value (number, bool, []string, %+v struct) ends at whitespace
// outside brackets and quotes.
std::string ReadBare(std::string_view text, size_t& pos) {
  size_t start = pos;
  int depth = 0;
  bool in_string = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (in_string) {
      if (c == '\\') {
        ++pos;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{' || c == '(') {
      ++depth;
    } else if ((c == ']' || c == '}' || c == ')') && depth > 0) {
      --depth;
    } else if (depth == 0 && IsSpace(c)) {
      break;
    }
  }
  if (pos > text.size()) pos = text.size();
  return std::string(text.substr(start, pos - start));
}

// The header's fields at their fixed places, read by hand: a quarter of a
// bundle's lines carry one, and the regular expression that read them took
// a tenth of the load. klog_test.cc checks this against that expression.
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsRe2Space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Two digits at `at`, or -1.
int TwoDigits(std::string_view s, size_t at) {
  if (at + 2 > s.size() || !IsDigit(s[at]) || !IsDigit(s[at + 1])) return -1;
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

// A run of digits from `*at` as an integer of type T; false when there is
// none or it does not fit.
template <typename T>
bool Digits(std::string_view s, size_t* at, T* value) {
  size_t start = *at;
  while (*at < s.size() && IsDigit(s[*at])) ++*at;
  if (*at == start) return false;
  auto [end, error] = std::from_chars(s.data() + start, s.data() + *at, *value);
  return error == std::errc() && end == s.data() + *at;
}

// "Lmmdd hh:mm:ss.uuuuuu" at the start of `s`.
bool ReadKlogClock(std::string_view s, KlogHeader* h) {
  if (s.size() < 21 || (s[0] != 'I' && s[0] != 'W' && s[0] != 'E' && s[0] != 'F')) return false;
  h->severity = s[0];
  h->month = TwoDigits(s, 1);
  h->day = TwoDigits(s, 3);
  h->hour = TwoDigits(s, 6);
  h->minute = TwoDigits(s, 9);
  h->second = TwoDigits(s, 12);
  if (h->month < 0 || h->day < 0 || h->hour < 0 || h->minute < 0 || h->second < 0) return false;
  if (s[5] != ' ' || s[8] != ':' || s[11] != ':' || s[14] != '.') return false;
  size_t at = 15;
  for (size_t i = 15; i < 21; ++i) {
    if (!IsDigit(s[i])) return false;
  }
  return Digits(s, &at, &h->microsecond) && at == 21;
}

bool MayStartWithGoLogHeader(std::string_view line) {
  return line.size() >= 19 && IsDigit(line[0]) && line[4] == '/' && line[7] == '/' && line[10] == ' ' &&
         line[13] == ':';
}

}  // namespace

std::optional<KlogHeader> ParseKlogHeader(std::string_view line) {
  KlogHeader h;
  if (!ReadKlogClock(line, &h)) return std::nullopt;
  size_t at = 21;
  if (at >= line.size() || line[at] != ' ') return std::nullopt;
  while (at < line.size() && line[at] == ' ') ++at;
  if (!Digits(line, &at, &h.pid) || at >= line.size() || line[at] != ' ') return std::nullopt;
  size_t file_start = ++at;
  while (at < line.size() && line[at] != ':' && line[at] != ']' && !IsRe2Space(line[at])) ++at;
  if (at == file_start || at >= line.size() || line[at] != ':') return std::nullopt;
  h.file = std::string(line.substr(file_start, at - file_start));
  ++at;
  if (!Digits(line, &at, &h.source_line) || at >= line.size() || line[at] != ']') return std::nullopt;
  ++at;
  if (at < line.size()) {
    if (line[at] != ' ') return std::nullopt;
    h.message = std::string(line.substr(at + 1));
  }
  if (!ValidClock(h.month, h.day, h.hour, h.minute, h.second)) return std::nullopt;
  return h;
}

std::optional<GoLogHeader> ParseGoLogHeader(std::string_view line) {
  if (!MayStartWithGoLogHeader(line)) return std::nullopt;
  static const RE2 header(
      R"((?s)(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{6}))?(?: (.*))?)", RE2::Latin1);
  GoLogHeader h;
  std::string micro;
  if (!RE2::FullMatch(re2::StringPiece(line.data(), line.size()), header, &h.year, &h.month, &h.day,
                      &h.hour, &h.minute, &h.second, &micro, &h.message)) {
    return std::nullopt;
  }
  if (!ValidClock(h.month, h.day, h.hour, h.minute, h.second)) return std::nullopt;
  if (!micro.empty()) h.microsecond = std::stoi(micro);
  return h;
}

std::optional<LogTime> KlogTime(const KlogHeader& header, const LineClock& clock) {
  int carrier_year = 0, carrier_month = 0;
  CarrierYearMonth(clock, &carrier_year, &carrier_month);
  int year = header.month > carrier_month ? carrier_year - 1 : carrier_year;
  auto ns = LocalToUtcNs({year, header.month, header.day, header.hour, header.minute, header.second,
                          header.microsecond},
                         clock.utc_offset_seconds);
  if (!ns) return std::nullopt;
  return LogTime{*ns, true, !clock.offset_known};
}

std::optional<LogTime> GoLogTime(const GoLogHeader& header, const LineClock& clock) {
  auto ns = LocalToUtcNs({header.year, header.month, header.day, header.hour, header.minute,
                          header.second, header.microsecond},
                         clock.utc_offset_seconds);
  if (!ns) return std::nullopt;
  return LogTime{*ns, false, !clock.offset_known};
}

std::optional<StructuredMessage> SplitStructuredMessage(std::string_view text) {
  if (text.empty() || text[0] != '"') return std::nullopt;
  StructuredMessage out;
  size_t pos = 0;
  if (!ReadQuoted(text, pos, &out.message)) return std::nullopt;
  while (true) {
    while (pos < text.size() && IsSpace(text[pos])) ++pos;
    if (pos == text.size()) break;
    size_t field_start = pos;
    size_t key_end = pos;
    while (key_end < text.size() && IsKeyChar(text[key_end])) ++key_end;
    if (key_end == pos || key_end == text.size() || text[key_end] != '=') {
      out.unparsed = std::string(text.substr(field_start));
      break;
    }
    KlogField field;
    field.key = std::string(text.substr(pos, key_end - pos));
    pos = key_end + 1;
    if (pos < text.size() && text[pos] == '"') {
      if (!ReadQuoted(text, pos, &field.value)) {
        out.unparsed = std::string(text.substr(field_start));
        break;
      }
      field.quoted = true;
    } else if (!ReadMultiLine(text, pos, &field.value)) {
      field.value = ReadBare(text, pos);
    }
    out.fields.push_back(std::move(field));
  }
  return out;
}

}  // namespace gpuf
