// What the device plugin logged since its last start in the boot at
// capture, read from its logs as the node holds them (no database): the
// facts the chain's plugin steps judge (chain_steps.h), for the
// collector's summary and `watch`. The analyzer asks the same of its
// timeline (analyzer/timeline/chain_verdict.cc).
//
// Each pod log file and each `crictl logs` output is one run of the
// plugin's container; the plugin's unit journal holds every run of a host
// service, each after PID 1's "Started ..." line. The run that started
// last is the one running at capture.
#ifndef GPUF_CHAIN_PLUGIN_SINCE_START_H_
#define GPUF_CHAIN_PLUGIN_SINCE_START_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "chain/chain_steps.h"

namespace gpuf {

struct PluginLogSource {
  enum class Format {
    kContainerLog,  // a CRI or json-file pod log, or `crictl logs --timestamps`
    kJournalJson,   // `journalctl -o json` of the plugin's unit
  };
  Format format = Format::kContainerLog;
  std::string_view text;
};

// Lines before `boot_start_ns` (0: not known) belong to an earlier boot and
// are left out. Lines in neither format are skipped.
ChainFacts::Plugin ReadPluginSinceStart(const std::vector<PluginLogSource>& sources, int64_t boot_start_ns);

}  // namespace gpuf

#endif  // GPUF_CHAIN_PLUGIN_SINCE_START_H_
