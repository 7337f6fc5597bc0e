// Journal and kernel-log text, as other tools save it, turned into the
// `journalctl -o json` lines our journal slices hold (schema/bundle.md).
//
// `journalctl` short output (sos report, nvidia-bug-report, a saved
// `journalctl -u kubelet`), in the zone of the host that printed it:
//   Nov 18 11:18:16 node-1 systemd[1]: Started NVIDIA Persistence Daemon.
// short-iso and short-precise are read too:
//   2026-11-18T11:18:16+0800 node-1 kubelet[1333]: I1118 ...
//   Nov 18 11:18:16.625123 node-1 kernel: NVRM: loading ...
// `dmesg` (seconds since boot):
//   [   17.288000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07 ...
//
// The short format has no year and no zone, dmesg no wall clock: the
// caller gives them (TimeHints). Lines that are none of these ("-- Boot
// ... --" markers, catalog text) are counted, never guessed at; an
// indented line continues the message before it.
#ifndef GPUF_IMPORTER_JOURNAL_TEXT_H_
#define GPUF_IMPORTER_JOURNAL_TEXT_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace gpuf {

struct TimeHints {
  int year = 1970;               // for dates printed without one, when not_after_ns is 0
  int64_t not_after_ns = 0;      // the capture: a yearless date is in the last year that keeps it before this
  int utc_offset_seconds = 0;    // of the host that printed local times
  int64_t boot_start_ns = 0;     // wall clock of the boot the text is from; 0 unknown
  std::string boot_id;           // 32 hex digits, or "" (a stand-in is made)
  std::string unit;              // the unit a `journalctl -u X` text is about, "" otherwise
};

// Which of our journal slices a line belongs to, by its identifier.
struct JournalSplit {
  std::map<std::string, std::string> slices;  // logical name ("journal.kubelet") -> JSON lines
  // Lines of earlier boots, by how many boots earlier (-1, -2, ...): a text
  // spanning boots ("-- Boot <id> --" or "-- Reboot --" between them), or,
  // without markers, lines older than the boot's known start (then -1).
  std::map<int, std::map<std::string, std::string>> earlier;
  int lines_read = 0;
  int lines_skipped = 0;         // markers and lines in no known format
  std::map<std::string, int> unread_identifiers;  // lines of identifiers no slice takes ("sshd"), by identifier
  std::string hostname;          // as the short format prints it on every line
};

// Lines without their date and host ("kubelet[1311]: ...", "kernel: NVRM: ...")
// are kept without a time when the identifier is one of our slices; kern.log's
// "kernel: [  219.470994] ..." keeps its seconds since boot; a syslog priority
// word before a klog header ("info I0419 ...") is dropped. The month may be
// printed in any locale glibc ships (importer/locale_months.h).
JournalSplit ConvertJournalText(std::string_view text, const TimeHints& hints);

// True when one line reads as journal or syslog text (with or without its
// date and host), for telling a saved file's kind.
bool IsJournalLine(std::string_view line);

// Kernel ring text in every stamp dmesg prints (importer/dmesg_text.cc).
JournalSplit ConvertDmesgText(std::string_view text, const TimeHints& hints);

// A klog log saved without any journal prefix (a kubelet's own log file,
// `grep` over its glog files), as entries of `identifier`: the time is the
// klog header's, in the hints' year and zone; the thread id is the PID.
JournalSplit ConvertKlogAsJournal(std::string_view text, const std::string& identifier, const TimeHints& hints);

// "kubelet.host.root.log.INFO.20210709-193402.2247:I0716 ..." -> "I0716 ...":
// the file name grep prints before each line of several glog files.
std::string_view StripGlogFilePrefix(std::string_view line);

// The UTC time of a yearless local date ("Nov 18 11:18:16"), by the hints.
int64_t YearlessToUtcNs(int month, int day, int hour, int minute, int second, const TimeHints& hints);

// "NVIDIA Persistence Daemon" -> "nvidia-persistenced.service": PID 1 names
// a unit by its Description in the short format, which drops UNIT.
std::string UnitForDescription(std::string_view description);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_JOURNAL_TEXT_H_
