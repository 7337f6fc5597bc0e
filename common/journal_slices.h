// The journal slices a bundle holds (schema/bundle.md): which entries each
// one takes on the node, and what those entries carry. One table serves the
// collector (the journalctl match), the importer (a text line's identifier
// to its slice) and rule samples (the fields a sample line stands for).
#ifndef GPUF_COMMON_JOURNAL_SLICES_H_
#define GPUF_COMMON_JOURNAL_SLICES_H_

#include <span>
#include <string_view>

#include "common/artifacts.h"

namespace gpuf {

struct JournalSliceRow {
  std::string_view name;        // artifact name, e.g. "journal.kubelet"
  std::string_view units;       // space separated; each selected as journalctl -u selects it
  std::string_view matches;     // further journal matches, journal_match.h ("A=1 + B=2": either)
  std::string_view identifier;  // SYSLOG_IDENTIFIER of its entries
  std::string_view unit;        // _SYSTEMD_UNIT of its entries, "" for the kernel
  // Collected only where the unit is installed: the device plugin runs as a
  // host service on few distributions (Bottlerocket), as a pod elsewhere.
  bool only_where_installed = false;
};

// The slice holding the device plugin's own lines when it runs as a host
// service; they are the plugin's log as much as a pod's log file is.
inline constexpr std::string_view kPluginJournalSlice = artifact::kJournalNvidiaDevicePlugin;

std::span<const JournalSliceRow> JournalSliceTable();

// The slice named `name`, or nullptr.
const JournalSliceRow* FindJournalSlice(std::string_view name);

// The slice whose entries carry `identifier`, also under the names other
// builds log with ("nvidia-fabricmanager"); nullptr when none.
const JournalSliceRow* JournalSliceForIdentifier(std::string_view identifier);

// The slice that holds a unit's lines (its unit, or one of its units);
// null when none does.
const JournalSliceRow* JournalSliceForUnit(std::string_view unit);

}  // namespace gpuf

#endif  // GPUF_COMMON_JOURNAL_SLICES_H_
