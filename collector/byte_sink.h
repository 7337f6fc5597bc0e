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
  // Nothing written from now on would be kept (a capped file at its cap
  // that keeps the first bytes): a reader may stop feeding it.
  virtual bool Full() const { return false; }
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_BYTE_SINK_H_
