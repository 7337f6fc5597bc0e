// Where the device plugin's container logs are on the host:
// /var/log/pods/<namespace>_<pod>_<uid>/<container>/<n>.log[.<rotation>],
// for the pods or containers whose name the plugin pattern matches, less
// the containers that are only context (common/plugin_roles.h: the GPU
// Operator's config-manager, validation init containers and validators).
#ifndef GPUF_COLLECTOR_PLUGIN_LOGS_H_
#define GPUF_COLLECTOR_PLUGIN_LOGS_H_

#include <string>
#include <vector>

#include "collector/host_root.h"

namespace re2 {
class RE2;
}

namespace gpuf {

// Host paths of every such file, sorted by directory and name; empty when
// /var/log/pods is unreadable.
std::vector<std::string> PluginLogFiles(const HostRoot& host, const re2::RE2& plugin_pattern);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_PLUGIN_LOGS_H_
