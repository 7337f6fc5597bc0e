// What a collection run without root could not read. Much of a GPU node's
// evidence is root's only (the kubelet's directory, other users' journal,
// the runtime's socket, /proc/<pid> of containers): run as a user, collect
// still writes a bundle, and this says what is missing from it and why, so
// that nobody mistakes "could not read" for "was not there".
#ifndef GPUF_COLLECTOR_ACCESS_REPORT_H_
#define GPUF_COLLECTOR_ACCESS_REPORT_H_

#include <string>
#include <vector>

#include "collector/probe_runner.h"
#include "collector/triage.h"

namespace gpuf {

// One line per probe that was refused: a file or listing skipped as
// permission_denied, or a command whose stderr says it lacked permission
// ("journalctl: No journal files were opened due to insufficient
// permissions.", "connect: permission denied"). "probe: detail" each, in
// probe order; empty when nothing was refused.
std::vector<std::string> RefusedProbes(const std::vector<ProbeResult>& results, const StagedReader& read);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_ACCESS_REPORT_H_
