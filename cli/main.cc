// gpuforensics: forensics for Kubernetes GPU nodes whose GPUs went missing.
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/program.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace {

std::string UnknownCommand(std::string_view command) {
  std::string_view suggestion = gpuf::SuggestCommand(command);
  if (suggestion.empty()) return "unknown command '" + std::string(command) + "'; see 'gpuforensics --help'";
  return "unknown command '" + std::string(command) + "', did you mean '" + std::string(suggestion) + "'?";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() > 1 && args[0] == "help") {
    return gpuf::FinishStdout("gpuforensics help", gpuf::RunHelp(std::vector<std::string>(args.begin() + 1, args.end())));
  }
  const gpuf::Program program = {"gpuforensics", GPUF_VERSION, "commands:", gpuf::Commands(), UnknownCommand};
  return gpuf::RunProgram(program, args);
}
