// gpuforensics-collect: the node-side half of gpuforensics (collect, watch,
// verify, redact) as its own binary. It links the collector, the bundle reader and
// common/ only, never SQLite, YAML or the rules, so it builds fully static
// (-DGPUFORENSICS_STATIC=ON) and runs on a node image that has none of our
// libraries. Its commands behave exactly as `gpuforensics <command>`.
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/program.h"
#include "common/build_commit.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace {

constexpr gpuf::Command kNodeCommands[] = {
    {"collect", gpuf::kCollectHelp, gpuf::RunCollect},
    {"watch", gpuf::kWatchHelp, gpuf::RunWatch},
    {"verify", gpuf::kVerifyHelp, gpuf::RunVerify},
    {"redact", gpuf::kRedactHelp, gpuf::RunRedact},
};

std::string UnknownCommand(std::string_view command) {
  return "unknown command '" + std::string(command) +
         "'; this binary only collects, watches, verifies and redacts (analyze with gpuforensics)";
}

}  // namespace

int main(int argc, char** argv) {
  const gpuf::Program program = {"gpuforensics-collect", GPUF_VERSION, gpuf::BuildCommit(),
                                 "the node-side commands of gpuforensics (analyze the bundle elsewhere):",
                                 kNodeCommands, UnknownCommand};
  return gpuf::RunProgram(program, std::vector<std::string>(argv + 1, argv + argc));
}
