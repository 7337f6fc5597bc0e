#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunCompletion(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics completion SHELL\n\n"
      "Prints a completion script for SHELL (bash or zsh), generated from the\n"
      "commands and their options: commands after gpuforensics, a command's\n"
      "options after it, file names otherwise. The .deb installs both; to load\n"
      "one by hand: source <(gpuforensics completion bash).\n\noptions");
  options.add_options()("shell", po::value<std::string>()->value_name("SHELL"), "bash | zsh");
  po::positional_options_description positional;
  positional.add("shell", 1);
  auto parsed = ParseOptions("completion", args, options, positional);
  if (!parsed.ok()) return ReportFailure("completion", parsed.status());
  if (parsed->help) {
    std::cout << HelpText(options, positional);
    return kExitOk;
  }
  const std::string shell = parsed->values.count("shell") ? parsed->values["shell"].as<std::string>() : "";
  if (shell != "bash" && shell != "zsh") {
    return ReportFailure("completion", Status::InvalidArgument("SHELL must be bash or zsh",
                                                               "usage: gpuforensics completion bash|zsh"));
  }
  // The table lists this command too; it completes its shells' names as files, which is harmless.
  const std::vector<std::string> programs = {"gpuforensics", "gpuforensics-collect"};
  auto table = CompletionTable(Commands());
  std::string script = shell == "bash" ? BashCompletion(programs, table) : ZshCompletion(programs, table);
  std::fputs(script.c_str(), stdout);
  return kExitOk;
}

}  // namespace gpuf
