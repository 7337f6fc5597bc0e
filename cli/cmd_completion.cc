#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunCompletion(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics completion SHELL\n\n"
      "Prints a completion script for SHELL (bash, zsh or fish), generated from\n"
      "the commands and their options: commands after gpuforensics, a command's\n"
      "options after it, the words an option takes (--format <TAB>), file names\n"
      "otherwise. The .deb installs all three; to load one by hand:\n"
      "source <(gpuforensics completion bash).\n\noptions");
  options.add_options()("shell", po::value<std::string>()->value_name("SHELL"), "bash | zsh | fish");
  po::positional_options_description positional;
  positional.add("shell", 1);
  auto parsed = ParseOptions("completion", args, options, positional);
  if (!parsed.ok()) return ReportFailure("completion", parsed.status());
  if (parsed->help) return PrintHelp("completion", options, positional);
  const std::string shell = parsed->values.count("shell") ? parsed->values["shell"].as<std::string>() : "";
  if (shell != "bash" && shell != "zsh" && shell != "fish") {
    return ReportFailure("completion", Status::InvalidArgument("SHELL must be bash, zsh or fish",
                                                               "usage: gpuforensics completion bash|zsh|fish"));
  }
  // The table lists this command too; it completes its shells' names as files, which is harmless.
  const std::vector<std::string> programs = {"gpuforensics", "gpuforensics-collect"};
  auto table = CompletionTable(Commands());
  std::string script = shell == "bash"  ? BashCompletion(programs, table)
                       : shell == "zsh" ? ZshCompletion(programs, table)
                                        : FishCompletion(programs, table);
  std::fputs(script.c_str(), stdout);
  return kExitOk;
}

}  // namespace gpuf
