#include "cli/node_name_option.h"

#include <cstdio>
#include <cstdlib>

#include "collector/node_identity.h"
#include "common/terminal_text.h"

namespace gpuf {

Status CheckNodeNames(const std::string& command, const std::string& option_node) {
  if (!option_node.empty()) {
    if (auto problem = NodeNameProblem(option_node)) {
      return Status::InvalidArgument("--node '" + TerminalSafe(option_node) + "' is not a Node's name", *problem);
    }
  }
  const char* env = std::getenv("NODE_NAME");
  if (env == nullptr) return Status::Ok();
  const std::string env_node = env;
  const std::string shown = TerminalSafe(env_node);
  if (auto problem = NodeNameProblem(env_node)) {
    std::fprintf(stderr, "gpuforensics %s: warning: ignoring $NODE_NAME '%s': %s\n", command.c_str(), shown.c_str(),
                 problem->c_str());
  } else if (!option_node.empty() && option_node != env_node) {
    std::fprintf(stderr, "gpuforensics %s: warning: --node '%s' overrides $NODE_NAME '%s'\n", command.c_str(),
                 option_node.c_str(), shown.c_str());
  }
  return Status::Ok();
}

}  // namespace gpuf
