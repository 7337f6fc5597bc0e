// The event a journal entry records, for journal_entries.event and
// event_subject: PID 1's unit and reload messages, and the kubelet's
// device-plugin lines (klog header, structured text or JSON inside MESSAGE),
// and journald's own about lines it did not store: 'messages_suppressed'
// (its rate limit; the subject is the unit) and 'kernel_messages_missed'.
// Everything else is left to the rules. A unit that runs the kubelet inside
// it (k3s) is recorded as kubelet.service: its start is the kubelet's.
#ifndef GPUF_FORMATS_JOURNAL_EVENT_H_
#define GPUF_FORMATS_JOURNAL_EVENT_H_

#include <string>

#include "formats/journal_json.h"

namespace gpuf {

struct JournalEvent {
  std::string kind;     // "unit_started", "registration_request", ...; "" when none
  std::string subject;  // the unit or the resource
};

JournalEvent ClassifyJournalEntry(const JournalEntry& entry);

// PID 1's own line (also in a unit's slice: journalctl -u selects PID 1's
// lines about the unit).
bool FromSystemd(const JournalEntry& entry);

}  // namespace gpuf

#endif  // GPUF_FORMATS_JOURNAL_EVENT_H_
