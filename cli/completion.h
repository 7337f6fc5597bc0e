// Shell completion scripts for bash, zsh and fish, generated from the
// command table and each command's own options (CaptureOptions), so that a
// new command or option completes without anyone editing a script: commands
// after the program name, a command's --options after it, the words of an
// option that takes one of a few (--format <TAB>, cli/choice_value.h) after
// it, files otherwise. `gpuforensics completion bash|zsh|fish` prints them;
// docs/generate keeps a copy in docs/completion/, which the .deb installs.
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
  std::string description;           // one line
  std::vector<std::string> choices;  // the words it takes; empty: any value (a file)
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
std::string FishCompletion(const std::vector<std::string>& programs, const std::vector<CompletedCommand>& table);

// The answer to `PROGRAM __complete WORD...` (the words after the program
// name, the last one being completed), in the line format of cobra's
// __complete that kubectl reads from a plugin's kubectl_complete-NAME: one
// candidate per line ("word\tdescription"), then ":4" when only these words
// fit, ":0" when the shell should offer files.
std::string CobraCompletions(const std::vector<CompletedCommand>& table, const std::vector<std::string>& words);

}  // namespace gpuf

#endif  // GPUF_CLI_COMPLETION_H_
