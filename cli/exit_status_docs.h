// What each exit status means for a command, for its man page, its
// Markdown page and the index: rendered from common/exit_codes.h through
// this one function, so that the pages follow the codes wherever they are
// defined.
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
