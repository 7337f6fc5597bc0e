// The exact commands a remediation step means on this node, read from the
// bundle: how its device plugin restarts (a static pod's container is
// stopped and removed with crictl - the kubelet then starts a new one,
// while deleting the mirror pod does nothing; a DaemonSet's pod is deleted;
// a host service is restarted by systemd) and how the node is drained.
//
// Remediation steps in rules/*.yaml name them with placeholders:
//   {restart-plugin}   the plugin restart for this node
//   {drain-node}       kubectl drain for this node
// Without the facts a placeholder becomes a generic phrase, never a guess.
#ifndef GPUF_ANALYZER_REPORT_NODE_COMMANDS_H_
#define GPUF_ANALYZER_REPORT_NODE_COMMANDS_H_

#include <cstdint>
#include <string>

#include "analyzer/database.h"
#include "common/status.h"

namespace gpuf {

struct NodeCommands {
  std::string restart_plugin;      // "crictl stop f3d0365e077f && crictl rm f3d0365e077f"; "" when unknown
  std::string restart_plugin_how;  // "static pod nvidia-device-plugin-x in kube-system", "DaemonSet pod ..."
  std::string drain_node;          // "kubectl drain gpu-7 --ignore-daemonsets --delete-emptydir-data"; "" unknown
};

// Fails only when the database does.
Result<NodeCommands> ReadNodeCommands(Database& db, int64_t bundle_id);

// `step` with its placeholders replaced. With `command_apart` a known
// command is left to be shown on its own line: the step says "the command
// below" and why it is the right one.
std::string ExpandCommands(const std::string& step, const NodeCommands& commands, bool command_apart = false);

// The command a step's first placeholder stands for on this node; "" when
// it has none or the facts are missing.
std::string CommandOf(const std::string& step, const NodeCommands& commands);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_REPORT_NODE_COMMANDS_H_
