// The kubelet's own log file (RKE2's agent/logs/kubelet.log) read as the
// kubelet's journal entries, so that its registrations, restarts and
// admission errors reach the timeline and the rules as on a node whose
// kubelet logs to the journal. klog writes local time without a year: each
// line is placed with the collector's UTC offset and the collection's year.
// Lines of the boot at capture (at or after its start) are its entries;
// earlier ones are kept without a boot. Where the journal already holds the
// kubelet's own lines, the file is not read: a line twice would count twice.
#include <cstdint>
#include <optional>
#include <string>

#include "analyzer/load/boot_at_capture.h"
#include "analyzer/load/member_loaders.h"
#include "analyzer/query.h"
#include "common/text_lines.h"
#include "formats/klog.h"

namespace gpuf {

namespace {

Result<bool> JournalHasKubeletLines(LoadContext& ctx) {
  GPUF_ASSIGN_OR_RETURN(int64_t has, QueryInt(ctx.db(),
      "SELECT EXISTS (SELECT 1 FROM journal_entries j JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND j.identifier = 'kubelet')", ctx.bundle_id()));
  return has != 0;
}

// journald's PRIORITY for klog's severity letter.
int64_t Priority(char severity) {
  switch (severity) {
    case 'F': return 2;
    case 'E': return 3;
    case 'W': return 4;
    default: return 6;
  }
}

Status LoadKubeletLogFile(LoadContext& ctx, const MemberInput& in) {
  GPUF_ASSIGN_OR_RETURN(bool journal_has, JournalHasKubeletLines(ctx));
  if (journal_has) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(BootAtCapture boot, FindBootAtCapture(ctx));
  const Manifest& m = ctx.manifest();
  LineClock clock{m.started_at_unix_ns, m.utc_offset_seconds, true};
  JournalLineLoader this_boot(ctx, in, 0);
  JournalLineLoader earlier(ctx, in, std::nullopt);
  int unread = 0;
  ForEachLine(in.bytes, [&](int number, std::string_view line) {
    auto header = ParseKlogHeader(line);
    auto time = header ? KlogTime(*header, clock) : std::nullopt;
    if (!time) {
      if (!line.empty()) ++unread;
      return;
    }
    JournalEntry e;
    e.realtime_us = time->time_ns / 1000;
    e.identifier = "kubelet";
    e.pid = header->pid;
    e.priority = Priority(header->severity);
    e.message = std::string(line);
    const bool in_this_boot = boot.start_us && *e.realtime_us >= *boot.start_us;
    if (in_this_boot) e.boot_id = boot.id;
    (in_this_boot ? this_boot : earlier).Store(number, std::move(e));
  });
  if (unread > 0) {
    ctx.Warn(in.artifact_id, in.output.member, 0,
             std::to_string(unread) + " lines without a klog header (or with a date that does not exist) not read");
  }
  return Status::Ok();
}

}  // namespace

void LoadKubeletLog(LoadContext& ctx, const MemberInput& in) { ctx.Record(LoadKubeletLogFile(ctx, in)); }

}  // namespace gpuf
