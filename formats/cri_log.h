// Container log files as containerd and CRI-O write them under /var/log/pods:
//   2016-10-06T00:17:09.669794203Z stderr F log content 2
// (RFC 3339 time with 0-9 fraction digits and Z or +hh:mm, the stream, a tag
// of P for a partial line or F for the fragment that ends it, the text), and
// the docker json-file lines of dockershim nodes:
//   {"log":"content 2\n","stream":"stderr","time":"2016-10-20T18:39:20.57606444Z"}
// where a "log" without a final newline is a partial line.
// Also the output of `crictl logs -t`, which is the text behind its time:
//   2017-11-29T00:45:40.979020878Z I1129 00:45:40.978789       1 dns.go:48] version: 1.14.6-3-gc36cb11
#ifndef GPUF_FORMATS_CRI_LOG_H_
#define GPUF_FORMATS_CRI_LOG_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct CriLogRecord {
  int line = 0;                 // 1-based line of the first fragment
  int64_t time_ns = 0;          // UTC, from the first fragment
  int utc_offset_seconds = 0;   // the offset as written (+08:00 -> 28800)
  std::string stream;           // "stdout" or "stderr"; empty for crictl logs -t
  std::string message;          // fragments joined, without the final newline
  bool partial = false;         // the file ended before the line's F fragment
};

struct ParsedCriLog {
  std::vector<CriLogRecord> records;  // in the order their first fragment appears
  std::vector<ParseWarning> warnings;
};

struct CriFragment;

// A pod log read a line at a time, for one that arrives in chunks: each
// record goes to `record` once complete, in the order their first fragments
// appear, as ParseCriLog would list them.
class CriLogReader {
 public:
  explicit CriLogReader(std::function<void(CriLogRecord&&)> record) : record_(std::move(record)) {}
  void Line(int number, std::string_view line);
  // After the last line: the records still waiting for a fragment, partial.
  void End();
  std::vector<ParseWarning>& warnings() { return warnings_; }

 private:
  bool IsOpen(size_t index) const;
  void Join(CriFragment f);

  std::function<void(CriLogRecord&&)> record_;
  std::deque<CriLogRecord> records_;   // begun, not yet handed over
  size_t first_ = 0;                   // the index of records_.front() among all records
  std::optional<size_t> stdout_;       // the record a stream's partial line is open in
  std::optional<size_t> stderr_;
  std::vector<ParseWarning> warnings_;
};

// Partial fragments are joined per stream, since containerd and CRI-O split
// each stream's long lines on their own and may interleave the other stream.
// Lines in neither format become warnings and are skipped.
ParsedCriLog ParseCriLog(std::string_view text);

// `crictl logs -t`: each line is "<RFC 3339 time> <text>" (crictl has already
// joined partial lines). Lines without a leading time become warnings.
ParsedCriLog ParseCrictlTimestampedLogs(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_CRI_LOG_H_
