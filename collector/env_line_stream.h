// EnvValueScrubber over a stream of lines in which an environment entry may
// give its value before its name ("- value: S" then "  name: X", as some
// generators write YAML). Such an item's lines are held until its name shows
// whether the value is evidence (MIG_STRATEGY) or not; an item that ends, or
// runs past kMaxHeldLines, without a name has its value redacted.
#ifndef GPUF_COLLECTOR_ENV_LINE_STREAM_H_
#define GPUF_COLLECTOR_ENV_LINE_STREAM_H_

#include <functional>
#include <string>
#include <vector>

#include "collector/secrets.h"

namespace gpuf {

class EnvLineStream {
 public:
  // Receives each line, scrubbed, in the order it came, and its ending as
  // given ("\n", "\r\n", or "" for a last line without one).
  using Sink = std::function<void(std::string& line, const std::string& ending)>;

  static constexpr size_t kMaxHeldLines = 32;

  // Feeds one line (without its ending); emits it, or held lines, or none.
  // Returns the number of values replaced.
  int Line(std::string line, std::string ending, const Sink& emit);
  // Emits whatever is held.
  int Finish(const Sink& emit);

 private:
  int Release(const std::string& name_line, const Sink& emit);
  int Pass(std::string line, const std::string& ending, const Sink& emit);

  struct Held {
    std::string text;
    std::string ending;
  };
  EnvValueScrubber scrubber_;
  std::vector<Held> held_;
  size_t item_column_ = 0;  // the column of the held item's keys
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_ENV_LINE_STREAM_H_
