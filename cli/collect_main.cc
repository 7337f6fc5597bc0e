// gpuforensics-collect: the node-side half of gpuforensics (collect, watch,
// verify, redact) as its own binary. It links the collector, the bundle reader and
// common/ only, never SQLite, YAML or the rules, so it builds fully static
// (-DGPUFORENSICS_STATIC=ON) and runs on a node image that has none of our
// libraries. Its commands behave exactly as `gpuforensics <command>`.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/exit_codes.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace {

constexpr gpuf::Command kNodeCommands[] = {
    {"collect", "capture a GPU node's evidence into a bundle (read-only; run before any recovery)", gpuf::RunCollect},
    {"watch", "check the GPU chain cheaply; collect once per incident when it is broken (for a timer)",
     gpuf::RunWatch},
    {"verify", "check every member of a bundle against its manifest (sizes and sha256)", gpuf::RunVerify},
    {"redact", "write a copy of a bundle with names, addresses and secrets pseudonymized, for a support case",
     gpuf::RunRedact},
};

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "usage: gpuforensics-collect <command> [options]\n"
               "       gpuforensics-collect <command> --help\n"
               "       gpuforensics-collect --version\n\n"
               "the node-side commands of gpuforensics (analyze the bundle elsewhere):\n");
  for (const auto& c : kNodeCommands) {
    std::fprintf(out, "  %-10s %.*s\n", std::string(c.name).c_str(), static_cast<int>(c.help.size()), c.help.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return gpuf::kExitUsage;
  }
  std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    PrintUsage(stdout);
    return gpuf::kExitOk;
  }
  if (command == "--version" || command == "-V") {
    std::printf("gpuforensics-collect %s\n", GPUF_VERSION);
    return gpuf::kExitOk;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : kNodeCommands) {
    if (c.name == command) return c.handler(args);
  }
  std::fprintf(stderr, "gpuforensics-collect: unknown command '%s'; this binary only collects, watches, verifies and redacts "
               "(analyze with gpuforensics)\n", command.c_str());
  return gpuf::kExitUsage;
}
