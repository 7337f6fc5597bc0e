// kubectl-gpuforensics: the kubectl plugin (`kubectl gpuforensics ...`) that
// collects nodes from a laptop. kubectl finds it by its name on PATH; krew
// installs it from deploy/krew/gpuforensics.yaml. It links the bundle
// reader for verification and the collector's subprocess runner, nothing
// of the analyzer: analyze the bundles with gpuforensics.
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/program.h"
#include "common/build_commit.h"
#include "kube/kubectl_collect.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace {

constexpr gpuf::Command kPluginCommands[] = {
    {"collect", gpuf::kKubectlCollectHelp, gpuf::RunKubectlCollect},
};

std::string UnknownCommand(std::string_view command) {
  return "unknown command '" + std::string(command) + "'; see 'kubectl gpuforensics --help'";
}

}  // namespace

int main(int argc, char** argv) {
  gpuf::SetProgramName("kubectl gpuforensics");
  const gpuf::Program program = {"kubectl gpuforensics", GPUF_VERSION, gpuf::BuildCommit(),
                                 "collect nodes through the cluster's API (analyze the bundles with gpuforensics):",
                                 kPluginCommands, UnknownCommand};
  return gpuf::RunProgram(program, std::vector<std::string>(argv + 1, argv + argc));
}
