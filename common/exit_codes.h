// The exit statuses of gpuforensics, pinned: scripts and CI depend on them.
//
// kExitStatuses is the one table: every command's --help, the man pages
// (docs/generate) and README's table are rendered from it, so a status that
// changes here changes everywhere or fails the docs_current test.
#ifndef GPUF_COMMON_EXIT_CODES_H_
#define GPUF_COMMON_EXIT_CODES_H_

#include <span>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

enum ExitCode : int {
  kExitOk = 0,
  kExitFindings = 1,     // the chain is BROKEN or a finding >= medium; verify: mismatch; lint/test: problems
  kExitBadInput = 2,     // unreadable, damaged, hostile or too-new input
  kExitIncomplete = 3,   // the bundle is incomplete, members are missing or damaged, or no rule ran
  kExitUsage = 64,       // bad command line (sysexits EX_USAGE)
  kExitInternal = 70,    // a bug or an unexpected library failure (EX_SOFTWARE)
  kExitCantCreate = 73,  // the output exists or is not a regular file (EX_CANTCREAT)
  kExitIoError = 74,     // cannot write the output, stdout included (EX_IOERR)
};

struct ExitStatusRow {
  int code;
  std::string_view name;      // "findings"
  std::string_view meaning;   // one sentence, for people
  std::string_view commands;  // space-separated command names, "*" for every command
};

// In code order.
std::span<const ExitStatusRow> ExitStatuses();

// True when `row` applies to `command` ("analyze"; "" matches every row).
bool AppliesTo(const ExitStatusRow& row, std::string_view command);

// The rows that apply to `command`.
std::string ExitStatusHelp(std::string_view command);   // "exit status:\n  0  ...\n", for --help
std::string ExitStatusMarkdown();                        // README's table, every command

inline int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk: return kExitOk;
    case Status::Code::kInvalidArgument: return kExitUsage;
    case Status::Code::kNotFound:
    case Status::Code::kBadInput:
    case Status::Code::kUnsupported: return kExitBadInput;
    case Status::Code::kExists: return kExitCantCreate;
    case Status::Code::kIoError: return kExitIoError;
    case Status::Code::kInternal: return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_EXIT_CODES_H_
