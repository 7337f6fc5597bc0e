// Conversions between Unix nanoseconds and RFC 3339 text.
#ifndef GPUF_COMMON_TIME_FORMAT_H_
#define GPUF_COMMON_TIME_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

// "2026-11-18T03:30:00.123456789Z" (always nine fraction digits, UTC).
std::string FormatRfc3339Utc(int64_t unix_ns);

// Accepts "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)" with 0-9 fraction
// digits, as written by Go's RFC3339Nano. Fails with BadInput otherwise, and
// for years outside 1678-2261 (not representable in int64 nanoseconds; Go's
// zero time "0001-01-01T00:00:00Z" among them).
Result<int64_t> ParseRfc3339(std::string_view text);

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// algorithm); independent of the process time zone.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

// Nanoseconds since the epoch of a UTC date and time; std::nullopt when a
// field is out of its range or the year is outside 1678-2261 (what int64
// nanoseconds hold). For times read from hostile text: never overflows.
std::optional<int64_t> UnixNsFromUtcCivil(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                                          int64_t second);

// Wall clock and monotonic clock now, in nanoseconds.
int64_t WallClockNowNs();
int64_t MonotonicNowNs();

}  // namespace gpuf

#endif  // GPUF_COMMON_TIME_FORMAT_H_
