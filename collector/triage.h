// The short summary `collect` prints on stderr when it is done: enough for
// the engineer on the node to see at a glance where the GPU chain breaks,
// before the bundle is analyzed properly elsewhere. The steps are judged by
// the rules `analyze` uses (chain/chain_steps.h), from the probes' outputs.
#ifndef GPUF_COLLECTOR_TRIAGE_H_
#define GPUF_COLLECTOR_TRIAGE_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "chain/chain_steps.h"
#include "collector/probe_runner.h"
#include "common/manifest.h"

namespace re2 {
class RE2;
}

namespace gpuf {

using StagedReader = std::function<std::string(const ProbeResult&, std::string_view stream)>;

// The chain's facts as the probes saw them; `plugin_pattern` picks the
// device-plugin containers from crictl's listing.
ChainFacts TriageFacts(const std::vector<ProbeResult>& results, const StagedReader& read,
                       const re2::RE2& plugin_pattern);

// `manifest` says which Node and which kubeconfig were used (its host fields).
std::string TriageSummary(const std::vector<ProbeResult>& results, const Manifest& manifest, const StagedReader& read,
                          const re2::RE2& plugin_pattern);

// Rows of the PCI table whose class is a display or 3D controller.
int CountPciGpus(std::string_view pci_table);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_TRIAGE_H_
