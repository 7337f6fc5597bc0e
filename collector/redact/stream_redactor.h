// Redacts one stored stream as it flows: bytes in, redacted lines out,
// never more than one line in memory.
//
// Lines keep their endings ("\n", "\r\n", none at the end). A private-key
// block is one of the few things that spans lines: its body is dropped and
// one "<redacted>" block written in its place. A line longer than
// kMaxRedactedLineBytes (the analyzer's own cut) is cut there: the rest of
// it is dropped, never held, and kCutLineMarker ends what is kept, so a
// 4 GiB line of zeros costs 1 MiB of memory, not 4 GiB.
#ifndef GPUF_COLLECTOR_REDACT_STREAM_REDACTOR_H_
#define GPUF_COLLECTOR_REDACT_STREAM_REDACTOR_H_

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "collector/env_line_stream.h"
#include "collector/redact/text_redactor.h"
#include "collector/secrets.h"
#include "common/sha256.h"
#include "common/status.h"

namespace gpuf {

inline constexpr size_t kMaxRedactedLineBytes = 1 << 20;
inline constexpr std::string_view kCutLineMarker = " [line cut at 1 MiB by gpuforensics redact]";

// Splits chunks into lines (without "\n"; a "\r" stays); memory holds one
// line, of kMaxRedactedLineBytes at most (the rest of a longer one is dropped).
class LineAssembler {
 public:
  template <typename Fn>
  void Feed(std::string_view bytes, Fn fn) {
    while (!bytes.empty()) {
      size_t newline = bytes.find('\n');
      Append(bytes.substr(0, newline));
      if (newline == std::string_view::npos) return;
      bytes.remove_prefix(newline + 1);
      fn(std::string_view(partial_));
      partial_.clear();
    }
  }
  template <typename Fn>
  void Finish(Fn fn) {
    if (!partial_.empty()) fn(std::string_view(partial_));
    partial_.clear();
  }

 private:
  void Append(std::string_view bytes) {
    partial_.append(bytes.substr(0, kMaxRedactedLineBytes - std::min(partial_.size(), kMaxRedactedLineBytes)));
  }
  std::string partial_;
};

class StreamRedactor {
 public:
  // Writes to `out` (owned by the caller), counting into `counts`.
  StreamRedactor(TextRedactor* redactor, std::FILE* out, RedactionCounts* counts)
      : redactor_(redactor), out_(out), counts_(counts) {}

  Status Feed(std::string_view bytes);
  // Flushes a last line without a newline. Fails with IoError.
  Status Finish();

  int64_t size_bytes() const { return size_; }
  std::string sha256() { return hash_.HexDigest(); }

 private:
  Status Emit(std::string line, bool newline);
  Status Redacted(std::string line, const std::string& ending);
  Status ReleaseEnv();
  Status Write(std::string_view bytes);

  TextRedactor* redactor_;
  std::FILE* out_;
  RedactionCounts* counts_;
  std::string partial_;
  bool cut_ = false;  // partial_ reached kMaxRedactedLineBytes; the rest of the line is dropped
  bool in_private_key_ = false;
  EnvLineStream env_;
  int64_t size_ = 0;
  Sha256 hash_;
};

// Redacts the file at `in` into a new file at `out`; size and sha256 of
// what was written come back. Fails with IoError.
struct RedactedFile {
  int64_t size_bytes = 0;
  std::string sha256;
};
Result<RedactedFile> RedactFile(TextRedactor* redactor, const std::string& in, const std::string& out,
                                RedactionCounts* counts);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_STREAM_REDACTOR_H_
