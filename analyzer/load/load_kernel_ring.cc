// The kernel ring (dmesg) stands in for the kernel's journal entries where
// the journal holds none of the boot at capture (a volatile journal, kernel
// messages not forwarded to it), and completes them where the journal lost
// the boot's start (vacuumed): only the ring's records stamped before the
// journal's first kernel line are read, by the kernel's own stamp, which
// journald keeps as _SOURCE_MONOTONIC_TIMESTAMP. Without those stamps dmesg
// is kept as lines only: the same message twice would count twice.
#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/load/boot_at_capture.h"
#include "analyzer/load/member_loaders.h"
#include "analyzer/query.h"
#include "common/parse_int.h"
#include "formats/kernel_ring.h"

namespace gpuf {

namespace {

// Where the journal's kernel lines of the boot at capture begin, in µs
// since boot as the kernel stamped them: INT64_MAX when it has none, and
// nullopt when it has some without that stamp (no telling which are in it).
Result<std::optional<int64_t>> JournalKernelStart(LoadContext& ctx) {
  GPUF_ASSIGN_OR_RETURN(int64_t unstamped, QueryInt(ctx.db(),
      "SELECT count(*) FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND j.transport = 'kernel' AND j.boot_offset = 0 "
      "AND j.source_monotonic_us IS NULL", ctx.bundle_id()));
  if (unstamped > 0) return std::optional<int64_t>();
  GPUF_ASSIGN_OR_RETURN(auto first, QueryText(ctx.db(),
      "SELECT min(j.source_monotonic_us) FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND j.transport = 'kernel' AND j.boot_offset = 0", ctx.bundle_id()));
  if (!first) return std::optional<int64_t>(INT64_MAX);
  return std::optional<int64_t>(Int64Or(*first, 0));
}

Status LoadRing(LoadContext& ctx, const MemberInput& in) {
  GPUF_ASSIGN_OR_RETURN(std::optional<int64_t> journal_start, JournalKernelStart(ctx));
  if (!journal_start || *journal_start <= 0) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(BootAtCapture boot, FindBootAtCapture(ctx));
  if (!boot.start_us || *boot.start_us <= 0) {
    ctx.Warn(in.artifact_id, in.output.member, 0, "the kernel ring was not placed in time: the boot's start is unknown");
    return Status::Ok();
  }
  JournalLineLoader lines(ctx, in, 0);
  for (auto& record : ParseKernelRing(in.bytes).records) {
    if (record.since_boot_us >= *journal_start) continue;
    JournalEntry e;
    e.realtime_us = *boot.start_us + record.since_boot_us;
    e.source_monotonic_us = record.since_boot_us;
    e.boot_id = boot.id;
    e.identifier = "kernel";
    e.transport = "kernel";
    e.message = std::move(record.message);
    lines.Store(record.line, std::move(e));
  }
  return Status::Ok();
}

}  // namespace

void LoadKernelRing(LoadContext& ctx, const MemberInput& in) { ctx.Record(LoadRing(ctx, in)); }

}  // namespace gpuf
