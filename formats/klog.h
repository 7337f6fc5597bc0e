// The klog line header written by kubelet and newer device plugins,
//   I1017 12:05:33.312491    1667 main.go:246] inotify: /var/lib/kubelet/device-plugins/kubelet.sock created, restarting.
// (severity, MMDD without a year, local time without a zone, PID right-aligned
// to width 7 or wider, file:line), the Go stdlib log header of old device
// plugins,
//   2021/04/26 23:19:16 Registered device plugin for 'nvidia.com/gpu' with Kubelet
// and the structured message klog's InfoS/ErrorS write after the header,
//   "Got registration request from device plugin with resource" resourceName="nvidia.com/gpu"
// Neither header carries a zone and klog carries no year, so turning one into
// UTC takes a LineClock from the caller: a nearby UTC time (the CRI or journal
// timestamp, or the collection time) and the offset of the writer's clock.
#ifndef GPUF_FORMATS_KLOG_H_
#define GPUF_FORMATS_KLOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct KlogHeader {
  char severity = 'I';  // 'I', 'W', 'E' or 'F'
  int month = 0;        // 1..12
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int microsecond = 0;
  int64_t pid = 0;      // klog's "threadid" is os.Getpid()
  std::string file;     // "main.go"
  int source_line = 0;
  std::string message;  // after "] "; empty when the line ends at "]"
};

struct GoLogHeader {
  int year = 0;
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int microsecond = 0;  // 0 unless log.Lmicroseconds was set
  std::string message;
};

// What the caller knows about the clock a line was written with.
struct LineClock {
  int64_t carrier_ns = 0;       // a UTC time known to be close to the line
  int utc_offset_seconds = 0;   // local time minus UTC of the writer's clock
  bool offset_known = false;    // false: utc_offset_seconds is a guess
};

struct LogTime {
  int64_t time_ns = 0;          // UTC
  bool year_inferred = false;   // the year came from the carrier, not the line
  bool zone_assumed = false;    // the offset was a guess (LineClock::offset_known false)
};

// std::nullopt when the line does not start with a klog header.
std::optional<KlogHeader> ParseKlogHeader(std::string_view line);

// std::nullopt when the line does not start with "YYYY/MM/DD HH:MM:SS".
std::optional<GoLogHeader> ParseGoLogHeader(std::string_view line);

// The year is the carrier's (read in the writer's zone), or the one before
// when the line's month is later than the carrier's: a December line carried
// in January. std::nullopt when the date does not exist (e.g. 0230).
std::optional<LogTime> KlogTime(const KlogHeader& header, const LineClock& clock);
std::optional<LogTime> GoLogTime(const GoLogHeader& header, const LineClock& clock);

struct KlogField {
  std::string key;
  std::string value;     // Go escapes decoded; the text itself when unquoted
  bool quoted = false;
};

struct StructuredMessage {
  std::string message;            // the leading quoted text, unescaped
  std::vector<KlogField> fields;  // in order; keys may repeat
  std::string unparsed;           // the tail that was not key=value; empty when clean
};

// Splits `"Message" key="value" n=3 list=["a","b"] s={A: b c}`. Quoted values
// use Go escaping; klog's multi-line form key=<\n\tline\n > is also read.
// Quotes whose backslashes were lost in copying (err="node "x" not found")
// are kept as text: a quote closes a string only before the end, or before a
// space and a key=. std::nullopt when the text does not start with '"'.
std::optional<StructuredMessage> SplitStructuredMessage(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KLOG_H_
