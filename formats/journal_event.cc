#include "formats/journal_event.h"

#include <re2/re2.h>

#include "common/byte_pattern.h"
#include "formats/klog.h"
#include "formats/kubelet_log.h"

namespace gpuf {

bool FromSystemd(const JournalEntry& e) { return e.pid == 1 || e.identifier == "systemd"; }

namespace {

// journald's own lines about what it did not store: its rate limit
// ("Suppressed 1520 messages from kubelet.service"; before systemd 246 the
// unit's cgroup, "/system.slice/kubelet.service") and the kernel's ring
// buffer overrunning it ("Missed 47 kernel messages").
JournalEvent ClassifyJournaldMessage(const std::string& message) {
  static const RE2 suppressed(R"(^Suppressed \d+ messages from (?:\S*/)?(\S+?)\.?$)", BytePatternOptions());
  static const RE2 missed(R"(^Missed \d+ kernel messages)", BytePatternOptions());
  std::string unit;
  if (RE2::PartialMatch(message, suppressed, &unit)) return {"messages_suppressed", unit};
  if (RE2::PartialMatch(message, missed)) return {"kernel_messages_missed", "kernel"};
  return {};
}

}  // namespace

JournalEvent ClassifyJournalEntry(const JournalEntry& e) {
  if (e.identifier == "systemd-journald") return ClassifyJournaldMessage(e.message);
  if (FromSystemd(e)) {
    SystemdEvent s = ClassifySystemdMessage(e.message);
    // Before systemd 250 the text names the unit's Description only; the
    // entry's UNIT field names the unit.
    std::string unit = s.unit.empty() ? e.unit : s.unit;
    if (IsKubeletUnit(unit)) unit = "kubelet.service";
    if (s.kind != SystemdEventKind::kUnknown) return {SystemdEventKindName(s.kind), unit};
  }
  if (IsKubeletIdentifier(e.identifier) || IsKubeletUnit(e.unit)) {
    auto header = ParseKlogHeader(e.message);
    KubeletEvent k = ClassifyKubeletMessage(header ? std::string_view(header->message) : std::string_view(e.message));
    if (k.kind != KubeletEventKind::kUnknown) return {KubeletEventKindName(k.kind), k.resource};
  }
  return {};
}

}  // namespace gpuf
