// A binary's front door: usage, --help, --version and the dispatch to its
// command table. gpuforensics and gpuforensics-collect differ only in the
// table, the heading over it and what they say about an unknown command.
#ifndef GPUF_CLI_PROGRAM_H_
#define GPUF_CLI_PROGRAM_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"

namespace gpuf {

struct Program {
  std::string_view name;     // "gpuforensics"
  std::string_view version;  // printed by --version after the name, and in man pages
  std::string_view commit;   // --version names it too: the build's git commit, "unknown" outside git
  std::string_view heading;  // the line over the command list
  std::span<const Command> commands;
  // The one line printed for an unknown command, without the "NAME: " prefix.
  std::string (*unknown_command)(std::string_view command);
};

// `args` are the arguments after the program name. Returns the exit status.
// `help ...` goes to RunHelpFor (help_docs.h).
int RunProgram(const Program& program, const std::vector<std::string>& args);

}  // namespace gpuf

#endif  // GPUF_CLI_PROGRAM_H_
