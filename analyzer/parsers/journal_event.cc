#include "analyzer/parsers/journal_event.h"

#include "analyzer/parsers/klog.h"
#include "analyzer/parsers/kubelet_log.h"

namespace gpuf {

bool FromSystemd(const JournalEntry& e) { return e.pid == 1 || e.identifier == "systemd"; }

JournalEvent ClassifyJournalEntry(const JournalEntry& e) {
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
