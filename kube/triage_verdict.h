// What the collector's triage (collect's stderr in the node's pod) says of
// the chain, in one line for the person who ran the kubectl plugin:
//   "BROKEN at device plugin NVML init (Failed to initialize NVML: Unknown Error)"
//   "no step failed (2 unknown)"
// The triage lists the chain's steps one a line (collector/triage.cc):
//   "  device plugin NVML init:              failed (Failed to initialize NVML: ...)"
#ifndef GPUF_KUBE_TRIAGE_VERDICT_H_
#define GPUF_KUBE_TRIAGE_VERDICT_H_

#include <string>
#include <string_view>

namespace gpuf {

// "" when the text holds no step line (a collector that printed none).
// Escape sequences and other bytes a terminal would act on are neutralised.
std::string TriageVerdict(std::string_view collect_stderr);

}  // namespace gpuf

#endif  // GPUF_KUBE_TRIAGE_VERDICT_H_
