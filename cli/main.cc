// gpuforensics: forensics for Kubernetes GPU nodes whose GPUs went missing.
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/program.h"
#include "common/build_commit.h"

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
  const gpuf::Program program = {"gpuforensics", GPUF_VERSION, gpuf::BuildCommit(), "commands:", gpuf::Commands(),
                                 UnknownCommand};
  return gpuf::RunProgram(program, std::vector<std::string>(argv + 1, argv + argc));
}
