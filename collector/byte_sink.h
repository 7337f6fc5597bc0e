// Where a command's output goes as it is read (subprocess.h): a capped
// file, or a splitter that routes each journal entry to its slice's file.
#ifndef GPUF_COLLECTOR_BYTE_SINK_H_
#define GPUF_COLLECTOR_BYTE_SINK_H_

#include <string_view>

#include "common/status.h"

namespace gpuf {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Never fails for lack of room; an error is the sink's own (a full disk).
  virtual Status Write(std::string_view bytes) = 0;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_BYTE_SINK_H_
