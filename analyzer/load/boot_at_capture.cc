#include "analyzer/load/boot_at_capture.h"

#include "analyzer/query.h"
#include "common/parse_int.h"

namespace gpuf {

Result<BootAtCapture> FindBootAtCapture(LoadContext& ctx) {
  BootAtCapture boot;
  for (const auto& [id, end] : ctx.journal_boot_ends().ends()) {
    if (end.boot_offset == 0) {
      boot.id = id;
      boot.start_us = end.realtime_us - end.monotonic_us;
    }
  }
  if (boot.id.empty()) {
    GPUF_ASSIGN_OR_RETURN(auto id, QueryText(ctx.db(),
        "SELECT replace(l.text, '-', '') FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = 'boot.boot_id' AND l.line = 1", ctx.bundle_id()));
    boot.id = id.value_or("");
  }
  if (!boot.start_us) {
    GPUF_ASSIGN_OR_RETURN(auto btime, QueryText(ctx.db(),
        "SELECT substr(l.text, 7) FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = 'boot.proc_stat' AND l.text LIKE 'btime %'", ctx.bundle_id()));
    if (btime) boot.start_us = Int64Or(*btime, 0) * 1000000;
  }
  return boot;
}

}  // namespace gpuf
