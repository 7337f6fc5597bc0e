// The boot at capture, for lines that carry no boot of their own (dmesg,
// a kubelet's log file): as the journal knows it (its id, and its start from
// an entry with both clocks), else /proc/sys/kernel/random/boot_id and
// /proc/stat's btime. Read after the journal slices were loaded.
#ifndef GPUF_ANALYZER_LOAD_BOOT_AT_CAPTURE_H_
#define GPUF_ANALYZER_LOAD_BOOT_AT_CAPTURE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/load/load_context.h"
#include "common/status.h"

namespace gpuf {

struct BootAtCapture {
  std::string id;               // 32 hex digits, as the journal writes it; "" unknown
  std::optional<int64_t> start_us;
};

// Fails only when the database does.
Result<BootAtCapture> FindBootAtCapture(LoadContext& ctx);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_BOOT_AT_CAPTURE_H_
