#include "analyzer/display_zone.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace gpuf {

namespace {

std::optional<int> ParseFixedOffset(const std::string& spec) {
  int hours = 0, minutes = 0;
  char sign = 0;
  if (spec.size() != 6 || std::sscanf(spec.c_str(), "%c%2d:%2d", &sign, &hours, &minutes) != 3) return std::nullopt;
  if ((sign != '+' && sign != '-') || hours > 14 || minutes > 59) return std::nullopt;
  return (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

bool ZoneFileExists(const std::string& name) {
  if (name.empty() || name.find("..") != std::string::npos || name[0] == '/') return false;
  std::error_code ec;
  return std::filesystem::is_regular_file("/usr/share/zoneinfo/" + name, ec);
}

}  // namespace

Result<DisplayZone> DisplayZone::Parse(const std::string& spec, const std::string& node_zone) {
  DisplayZone zone;
  std::string wanted = spec == "node" ? node_zone : spec;
  if (spec == "node" && node_zone.empty()) {
    return Status::InvalidArgument("--tz node: the bundle does not record the node's time zone");
  }
  if (wanted == "UTC" || wanted == "Etc/UTC" || wanted == "Z") return zone;
  if (auto offset = ParseFixedOffset(wanted)) {
    zone.name_ = wanted;
    zone.fixed_offset_seconds_ = *offset;
    return zone;
  }
  if (!ZoneFileExists(wanted)) {
    return Status::InvalidArgument("--tz '" + wanted + "' is not UTC, +HH:MM, node, or a zone in /usr/share/zoneinfo");
  }
  zone.name_ = wanted;
  zone.fixed_offset_seconds_ = std::nullopt;
  return zone;
}

int DisplayZone::OffsetAt(int64_t unix_ns) const {
  if (fixed_offset_seconds_) return *fixed_offset_seconds_;
  // tzdata is reached through TZ; the report is single-threaded.
  const char* previous = std::getenv("TZ");
  std::string saved = previous ? previous : "";
  setenv("TZ", name_.c_str(), 1);
  tzset();
  std::time_t t = static_cast<std::time_t>(unix_ns / 1000000000LL);
  std::tm local{};
  localtime_r(&t, &local);
  if (previous) setenv("TZ", saved.c_str(), 1); else unsetenv("TZ");
  tzset();
  return static_cast<int>(local.tm_gmtoff);
}

std::string DisplayZone::Format(int64_t unix_ns) const {
  int offset = OffsetAt(unix_ns);
  int64_t seconds = unix_ns / 1000000000LL + offset;
  int64_t millis = (unix_ns % 1000000000LL) / 1000000;
  if (millis < 0) {
    millis += 1000;
    seconds -= 1;
  }
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char zone[16] = "Z";
  if (offset != 0) {
    int magnitude = offset < 0 ? -offset : offset;
    std::snprintf(zone, sizeof zone, "%c%02d:%02d", offset < 0 ? '-' : '+', magnitude / 3600, magnitude % 3600 / 60);
  }
  char out[48];
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d.%03lld%s", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(millis), zone);
  return out;
}

std::string NodeZoneName(Database& db, int64_t bundle_id) {
  auto s = db.Prepare(
      "SELECT l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = ? AND ((a.name = $artifact(host.localtime) AND l.text NOT LIKE '#%') "
      "OR a.name = $artifact(host.timezone)) "
      "ORDER BY a.name = $artifact(host.timezone), l.line LIMIT 1");
  if (!s.ok()) return "";
  s->Bind(1, bundle_id);
  if (!s->Step()) return "";
  std::string text = s->ColumnText(0);
  size_t zoneinfo = text.find("zoneinfo/");
  if (zoneinfo != std::string::npos) return text.substr(zoneinfo + 9);
  if (text.find('\t') != std::string::npos) return "";  // a listing row without a zoneinfo link
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace gpuf
