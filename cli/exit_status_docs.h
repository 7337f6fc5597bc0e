// What each exit status means for a command, for its man page, its
// Markdown page and the index: gpuforensics' rows are common/exit_codes.h's
// one table (those that apply to the command), kubectl-gpuforensics' its
// own.
#ifndef GPUF_CLI_EXIT_STATUS_DOCS_H_
#define GPUF_CLI_EXIT_STATUS_DOCS_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct ExitStatusDoc {
  int code;
  std::string meaning;
};

// `program` is "gpuforensics" or "kubectl gpuforensics"; `command` "" for
// the program's index page. In code order.
std::vector<ExitStatusDoc> ExitStatuses(std::string_view program, std::string_view command);

}  // namespace gpuf

#endif  // GPUF_CLI_EXIT_STATUS_DOCS_H_
