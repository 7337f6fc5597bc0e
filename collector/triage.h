// The short summary `collect` prints on stderr when it is done: enough for
// the engineer on the node to see at a glance where the GPU chain breaks,
// before the bundle is analyzed properly elsewhere.
#ifndef GPUF_COLLECTOR_TRIAGE_H_
#define GPUF_COLLECTOR_TRIAGE_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/probe_runner.h"
#include "common/manifest.h"

namespace gpuf {

using StagedReader = std::function<std::string(const ProbeResult&, std::string_view stream)>;

// `manifest` says which Node and which kubeconfig were used (its host fields).
std::string TriageSummary(const std::vector<ProbeResult>& results, const Manifest& manifest, const StagedReader& read);

// Lines of `nvidia-smi -L` that name a whole GPU ("GPU 0: ... (UUID: GPU-...)").
int CountNvidiaSmiGpus(std::string_view list_output);

// Rows of the PCI table whose class is a display or 3D controller.
int CountPciGpus(std::string_view pci_table);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_TRIAGE_H_
