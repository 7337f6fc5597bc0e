// Shell completion scripts for bash and zsh, generated from the command
// table and each command's own options (CaptureOptions), so that a new
// command or option completes without anyone editing a script: commands
// after the program name, a command's --options after it, files otherwise.
// `gpuforensics completion bash|zsh` prints them; docs/generate keeps a copy
// in docs/completion/, which the .deb installs.
#ifndef GPUF_CLI_COMPLETION_H_
#define GPUF_CLI_COMPLETION_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"

namespace gpuf {

struct CompletedOption {
  std::string flag;         // "--format" or "-o"
  bool takes_value = false;
  std::string description;  // one line
};

struct CompletedCommand {
  std::string name;
  std::string summary;
  std::vector<CompletedOption> options;
};

// Every command with its options (positional arguments left out: they are files).
std::vector<CompletedCommand> CompletionTable(std::span<const Command> commands);

// `programs`: the names the script completes ("gpuforensics", "gpuforensics-collect").
std::string BashCompletion(const std::vector<std::string>& programs, const std::vector<CompletedCommand>& table);
std::string ZshCompletion(const std::vector<std::string>& programs, const std::vector<CompletedCommand>& table);

}  // namespace gpuf

#endif  // GPUF_CLI_COMPLETION_H_
