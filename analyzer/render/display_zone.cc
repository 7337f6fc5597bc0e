#include "analyzer/render/display_zone.h"

#include <date/tz.h>

#include <chrono>
#include <cstdio>
#include <exception>

// The report is read offline: zones come from this machine's
// /usr/share/zoneinfo, never from a download.
static_assert(USE_OS_TZDB && !HAS_REMOTE_API, "date must be built to read the system's tzdata");

namespace gpuf {

namespace {

std::optional<int> ParseFixedOffset(const std::string& spec) {
  int hours = 0, minutes = 0;
  char sign = 0;
  if (spec.size() != 6 || std::sscanf(spec.c_str(), "%c%2d:%2d", &sign, &hours, &minutes) != 3) return std::nullopt;
  if ((sign != '+' && sign != '-') || hours > 14 || minutes > 59) return std::nullopt;
  return (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

// The zone named `name` in tzdata, null when there is none. date throws for
// an unknown name, a missing zoneinfo folder or an unreadable zone file;
// the first get_info reads the file, so it happens here and not in Format.
const date::time_zone* FindZone(const std::string& name) {
  if (name.empty() || name.find("..") != std::string::npos || name[0] == '/') return nullptr;
  try {
    const date::time_zone* zone = date::locate_zone(name);
    zone->get_info(date::sys_seconds{});
    return zone;
  } catch (const std::exception&) {
    return nullptr;
  }
}

// "Z" for UTC, else "+08:00" or "-05:30".
std::string OffsetText(int offset_seconds) {
  if (offset_seconds == 0) return "Z";
  int magnitude = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  char text[16];
  std::snprintf(text, sizeof text, "%c%02d:%02d", offset_seconds < 0 ? '-' : '+', magnitude / 3600,
                magnitude % 3600 / 60);
  return text;
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
  zone.zone_ = FindZone(wanted);
  if (zone.zone_ == nullptr) {
    return Status::InvalidArgument("--tz '" + wanted + "' is not UTC, +HH:MM, node, or a zone in /usr/share/zoneinfo");
  }
  zone.name_ = wanted;
  zone.fixed_offset_seconds_ = std::nullopt;
  return zone;
}

int DisplayZone::OffsetAt(int64_t unix_ns) const {
  if (fixed_offset_seconds_) return *fixed_offset_seconds_;
  auto instant = std::chrono::floor<std::chrono::seconds>(std::chrono::nanoseconds{unix_ns});
  return static_cast<int>(zone_->get_info(date::sys_seconds{instant}).offset.count());
}

std::string DisplayZone::Format(int64_t unix_ns) const {
  using std::chrono::milliseconds;
  int offset = OffsetAt(unix_ns);
  auto local = date::local_time<milliseconds>{std::chrono::floor<milliseconds>(std::chrono::nanoseconds{unix_ns}) +
                                              std::chrono::seconds{offset}};
  return date::format("%FT%T", local) + OffsetText(offset);
}

}  // namespace gpuf
