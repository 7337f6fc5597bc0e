// One source file (or section) through its Conversion into the plan's
// artifacts, and the time facts the conversions need.
#ifndef GPUF_IMPORTER_CONVERSIONS_H_
#define GPUF_IMPORTER_CONVERSIONS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importer/artifact_map.h"
#include "importer/import_plan.h"
#include "importer/journal_text.h"

namespace gpuf {

struct SourcePiece {
  std::string name;          // logical name from the table ("" for journal text)
  Conversion conversion = Conversion::kAsIs;
  std::string instance;      // as the table says: "boot:0", "path", ""
  std::string source_file;   // where it came from, for the manifest
  std::string host_path;     // for instance "path": the path on the node
  std::string_view bytes;
  std::string_view command;  // the command that printed it, where the saved file says; "" else
};

// Adds what `piece` holds to `plan`; nothing when it holds none of ours
// (an inspect of another container, an empty output). Returns what of it was
// left out, for the input's coverage line ("" when nothing).
std::string ApplyConversion(const SourcePiece& piece, const TimeHints& hints, ImportPlan& plan);

// `nvidia-smi -q` text that describes GPUs, kept as it is for their
// properties (persistence, MIG and fabric state, row remapping) under
// host.nvidia_smi_query_xml: they are the node's, whichever view printed them.
void AddSmiQueryFacts(const std::string& source_file, std::string_view text, ImportPlan& plan);

// The local offset of a journal text, read from lines that carry their own
// RFC 3339 time with an offset (containerd's time="...+08:00") next to the
// journal's local time. std::nullopt when no line does.
std::optional<int> InferUtcOffsetFromJournal(std::string_view text);

// `date -R` ("Wed, 18 Nov 2026 21:30:00 +0800") or timedatectl's
// "Time zone: Asia/Shanghai (CST, +0800)": the offset, when the text has one.
std::optional<int> UtcOffsetFromDateText(std::string_view text);

// `date` in the C locale ("Mon Nov 30 17:49:46 CST 2026"), its wall time read as if UTC.
std::optional<int64_t> ParseDateAsUtc(std::string_view text);

// Every time the text prints as ctime does, anywhere in a line ("[Tue Mar 11
// 02:14:07 2025]" of dmesg -T, nvidia-smi's "Timestamp : Tue Mar 11 02:36:12
// 2025", date's "... UTC 2025"), read as UTC, in order.
std::vector<int64_t> CtimesAsUtc(std::string_view text);

// The zone offset between a local wall time (read as UTC) and the UTC
// instant of about the same moment, in whole quarter hours; std::nullopt
// when they are further than `tolerance_seconds` from one.
std::optional<int> OffsetBetween(int64_t local_as_utc_ns, int64_t utc_ns, int tolerance_seconds);

// "2026-11-18 11:17:39" (uptime -s, local time) -> UTC ns.
std::optional<int64_t> ParseUptimeSince(std::string_view text, int utc_offset_seconds);

int YearOf(int64_t unix_ns);

// True when the text names a device plugin (the collector's default pattern).
bool MentionsDevicePlugin(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_CONVERSIONS_H_
