// --node and $NODE_NAME, as collect and watch take them: a --node that
// cannot be a Node's name is a usage error; a $NODE_NAME that cannot is
// ignored with a warning (a DaemonSet's downward API gone wrong must not stop
// a capture); a $NODE_NAME that --node overrides is said, not dropped
// silently.
#ifndef GPUF_CLI_NODE_NAME_OPTION_H_
#define GPUF_CLI_NODE_NAME_OPTION_H_

#include <string>

#include "common/status.h"

namespace gpuf {

// `option_node` is "" when --node was not given. Warnings go to stderr.
Status CheckNodeNames(const std::string& command, const std::string& option_node);

}  // namespace gpuf

#endif  // GPUF_CLI_NODE_NAME_OPTION_H_
