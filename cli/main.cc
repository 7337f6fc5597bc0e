// gpuforensics: forensics for Kubernetes GPU nodes whose GPUs went missing.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/exit_codes.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace {

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "usage: gpuforensics <command> [options]\n"
               "       gpuforensics <command> --help\n"
               "       gpuforensics --version\n\ncommands:\n");
  for (const auto& c : gpuf::Commands()) {
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
  if (command == "help" && argc > 2) return gpuf::RunHelp(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "--help" || command == "-h" || command == "help") {
    PrintUsage(stdout);
    return gpuf::kExitOk;
  }
  if (command == "--version" || command == "-V") {
    std::printf("gpuforensics %s\n", GPUF_VERSION);
    return gpuf::kExitOk;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : gpuf::Commands()) {
    if (c.name == command) return c.handler(args);
  }
  std::string_view suggestion = gpuf::SuggestCommand(command);
  if (suggestion.empty()) {
    std::fprintf(stderr, "gpuforensics: unknown command '%s'; see 'gpuforensics --help'\n", command.c_str());
  } else {
    std::fprintf(stderr, "gpuforensics: unknown command '%s', did you mean '%.*s'?\n", command.c_str(),
                 static_cast<int>(suggestion.size()), suggestion.data());
  }
  return gpuf::kExitUsage;
}
