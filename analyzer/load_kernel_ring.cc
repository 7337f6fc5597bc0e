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

#include "analyzer/member_loaders.h"
#include "analyzer/parsers/kernel_ring.h"
#include "analyzer/query.h"
#include "common/parse_int.h"

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

// The boot at capture as the journal knows it (its id, and its start from
// an entry with both clocks), else /proc/sys/kernel/random/boot_id and
// /proc/stat's btime.
struct BootAtCapture {
  std::string id;               // 32 hex digits, as the journal writes it; "" unknown
  std::optional<int64_t> start_us;
};

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
    lines.Store(JournalLineLoader::Row{record.line, false, std::move(e)});
  }
  return Status::Ok();
}

}  // namespace

void LoadKernelRing(LoadContext& ctx, const MemberInput& in) { ctx.Record(LoadRing(ctx, in)); }

}  // namespace gpuf
