// The engine's own selections, scanned with the rules' in the same pass:
// what it needs to know of every bundle whatever rules run.
#ifndef GPUF_ANALYZER_RULES_ENGINE_SELECTIONS_H_
#define GPUF_ANALYZER_RULES_ENGINE_SELECTIONS_H_

#include <memory>

#include "analyzer/rules/rule.h"

namespace gpuf {

// The kernel's lines that name a GPU: "GPU at PCI:… GPU-…" joins a bus to
// a UUID; an Xid, a fall off the bus or a failed initialisation says a GPU
// was on that bus, in whatever boot (gpu_presence.h, node_kind.h).
std::unique_ptr<Selection> GpuNamesSelection();

// The device plugin's registrations, wherever written: what undoes an
// earlier start's failure (recovery.h).
std::unique_ptr<Selection> RegistrationsSelection();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_ENGINE_SELECTIONS_H_
