#include "common/time_format.h"

#include <cstdio>
#include <ctime>

namespace gpuf {

namespace {

bool ReadDigits(std::string_view text, size_t& pos, size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool Expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::string FormatRfc3339Utc(int64_t unix_ns) {
  int64_t seconds = unix_ns / 1000000000LL;
  int64_t fraction = unix_ns % 1000000000LL;
  if (fraction < 0) {
    fraction += 1000000000LL;
    seconds -= 1;
  }
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(fraction));
  return buf;
}

Result<int64_t> ParseRfc3339(std::string_view text) {
  const Status bad = Status::BadInput("not an RFC 3339 time", text);
  size_t pos = 0;
  int year, month, day, hour, minute, second;
  if (!ReadDigits(text, pos, 4, year) || !Expect(text, pos, '-') ||
      !ReadDigits(text, pos, 2, month) || !Expect(text, pos, '-') ||
      !ReadDigits(text, pos, 2, day)) {
    return bad;
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't' && text[pos] != ' ')) return bad;
  ++pos;
  if (!ReadDigits(text, pos, 2, hour) || !Expect(text, pos, ':') ||
      !ReadDigits(text, pos, 2, minute) || !Expect(text, pos, ':') ||
      !ReadDigits(text, pos, 2, second)) {
    return bad;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return bad;
  }
  int64_t fraction_ns = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 9) fraction_ns = fraction_ns * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return bad;
    for (int i = digits; i < 9; ++i) fraction_ns *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int oh, om;
    if (!ReadDigits(text, pos, 2, oh) || !Expect(text, pos, ':') || !ReadDigits(text, pos, 2, om)) {
      return bad;
    }
    offset_seconds = sign * (oh * 3600 + om * 60);
  } else {
    return bad;
  }
  if (pos != text.size()) return bad;
  // Unix nanoseconds in int64 span 1677-09-21 to 2262-04-11; Go's zero time
  // (year 1) and other far dates do not fit.
  if (year < 1678 || year > 2261) return Status::BadInput("time out of range", text);
  int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return seconds * 1000000000LL + fraction_ns;
}

std::optional<int64_t> UnixNsFromUtcCivil(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                                          int64_t second) {
  if (year < 1678 || year > 2261 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 ||
      minute < 0 || minute > 59 || second < 0 || second > 60) {
    return std::nullopt;
  }
  int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return (days * 86400 + hour * 3600 + minute * 60 + second) * 1000000000LL;
}

int64_t WallClockNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

int64_t MonotonicNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

}  // namespace gpuf
