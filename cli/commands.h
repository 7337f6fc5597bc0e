// The subcommands of gpuforensics, as a table (like ninja's ChooseTool).
#ifndef GPUF_CLI_COMMANDS_H_
#define GPUF_CLI_COMMANDS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"
#include "collector/redact/redaction.h"

namespace gpuf {

// A handler gets the arguments after the subcommand name and returns the
// process exit status. Handlers are the only code that prints or exits.
using CommandHandler = int (*)(const std::vector<std::string>& args);

struct Command {
  std::string_view name;
  std::string_view help;  // one line
  CommandHandler handler;
};

std::span<const Command> Commands();

// One-line help of the commands gpuforensics-collect has too (collect_main.cc).
inline constexpr std::string_view kCollectHelp =
    "capture a GPU node's evidence into a bundle (read-only; run before any recovery)";
inline constexpr std::string_view kWatchHelp =
    "check the GPU chain cheaply; collect once per incident when it is broken (for a timer)";
inline constexpr std::string_view kVerifyHelp = "check every member of a bundle against its manifest (sizes and sha256)";
inline constexpr std::string_view kRedactHelp =
    "write a copy of a bundle with names, addresses and secrets pseudonymized, for a support case";

// The redaction options shared by collect and redact (cmd_redact.cc).
void AddRedactOptions(po::options_description& options);
RedactOptions RedactOptionsFrom(const po::variables_map& values);
bool WantsRedaction(const po::variables_map& values);

// The closest command name to a typo, or "" when none is close.
std::string_view SuggestCommand(std::string_view typo);

int RunCollect(const std::vector<std::string>& args);
int RunAnalyze(const std::vector<std::string>& args);
int RunVerify(const std::vector<std::string>& args);
int RunSql(const std::vector<std::string>& args);
int RunRulesCommand(const std::vector<std::string>& args);
int RunTimeline(const std::vector<std::string>& args);
int RunWatch(const std::vector<std::string>& args);
int RunDiff(const std::vector<std::string>& args);
int RunFleet(const std::vector<std::string>& args);

int RunImport(const std::vector<std::string>& args);
int RunRedact(const std::vector<std::string>& args);
int RunCompletion(const std::vector<std::string>& args);

}  // namespace gpuf

#endif  // GPUF_CLI_COMMANDS_H_
