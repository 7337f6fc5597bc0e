// The time zone times are shown in: UTC, a fixed offset ("+08:00"), an IANA
// zone name ("Asia/Shanghai", read from this machine's tzdata), or the
// node's own zone as the bundle records it (/etc/localtime, /etc/timezone).
#ifndef GPUF_ANALYZER_RENDER_DISPLAY_ZONE_H_
#define GPUF_ANALYZER_RENDER_DISPLAY_ZONE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "common/status.h"

namespace date {
class time_zone;
}  // namespace date

namespace gpuf {

class DisplayZone {
 public:
  DisplayZone() = default;  // UTC

  // "UTC", "+08:00", "-05:30", an IANA name, or "node" with the bundle's
  // zone name. InvalidArgument for anything else or an unknown zone.
  static Result<DisplayZone> Parse(const std::string& spec, const std::string& node_zone);

  // "2026-11-18T11:18:16.123+08:00" (milliseconds).
  std::string Format(int64_t unix_ns) const;
  const std::string& name() const { return name_; }

 private:
  int OffsetAt(int64_t unix_ns) const;

  std::string name_ = "UTC";
  std::optional<int> fixed_offset_seconds_ = 0;  // nullopt: look up zone_
  const date::time_zone* zone_ = nullptr;        // from tzdata, which lives as long as the program
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_DISPLAY_ZONE_H_
