// Command outputs as people and other tools save them, turned into the
// stored formats our parsers read.
//
// `crictl ps -a` as a table (crictl's default), to `crictl ps -a -o json`:
//   CONTAINER      IMAGE          CREATED        STATE     NAME                      ATTEMPT   POD ID         POD
//   f3d0365e077f8  11e544f0ce205  10 hours ago   Running   nvidia-device-plugin-ctr  1         585005aaa7b54  nvidia-device-plugin-x
// The ids are the 13-character short ids; CREATED is relative to a moment
// the table does not give, so no creation time is made up.
//
// A device plugin's log as `kubectl logs` prints it (plain, with
// --timestamps, with --prefix), to `crictl logs -t` lines:
//   2026/11/18 03:18:17 Failed to initialize NVML: nvml: Unknown Error.
//   I1118 03:18:17.378842       1 main.go:317] Retreiving plugins.
//   2026-11-18T03:18:17.378842643Z I1118 03:18:17.378842 ...
//   [pod/nvidia-device-plugin-daemonset-x/nvidia-device-plugin] I1118 ...
// Plain lines get the time of their own Go-log or klog header (UTC, as
// containers log), else of the line before; a CRI log file (the kubelet's
// /var/log/pods format) is left as is and reported as such.
//
// `nvidia-smi -q` (text) to `nvidia-smi -L`:
//   GPU 00000000:18:00.0
//       Product Name                          : NVIDIA H800
//       GPU UUID                              : GPU-4a0b...
#ifndef GPUF_IMPORTER_SAVED_OUTPUTS_H_
#define GPUF_IMPORTER_SAVED_OUTPUTS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuf {

struct Converted {
  std::string text;
  int rows = 0;
  int lines_skipped = 0;
};

Converted CrictlTableToJson(std::string_view table);

enum class PluginLogForm { kCriFile, kTimestamped };

struct ConvertedLog {
  PluginLogForm form = PluginLogForm::kTimestamped;
  std::string text;  // the CRI file as is, or `crictl logs -t` lines
  int lines_timed_by_neighbour = 0;
};

// `year` for klog headers, which print none; `fallback_ns` for a log with no
// time at all.
ConvertedLog ConvertPluginLog(std::string_view text, int year, int64_t fallback_ns);

// `nvidia-smi -q` text: its GPUs with a UUID as `nvidia-smi -L` lines, and
// how many GPUs it describes at all (a pasted part may show no UUID).
struct ConvertedSmiQuery {
  Converted list;
  int gpus = 0;
};
ConvertedSmiQuery SmiQueryToList(std::string_view query);

// True when the first non-empty line is a CRI log record.
bool LooksLikeCriLog(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_SAVED_OUTPUTS_H_
