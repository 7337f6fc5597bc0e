// The exit statuses of gpuforensics, pinned: scripts and CI depend on them.
#ifndef GPUF_COMMON_EXIT_CODES_H_
#define GPUF_COMMON_EXIT_CODES_H_

#include "common/status.h"

namespace gpuf {

enum ExitCode : int {
  kExitOk = 0,
  kExitFindings = 1,     // analyze: findings of medium severity or above; verify: mismatch
  kExitBadInput = 2,     // unreadable, damaged, hostile or too-new input
  kExitUsage = 64,       // bad command line (sysexits EX_USAGE)
  kExitIoError = 74,     // cannot write the output (EX_IOERR)
  kExitInternal = 70,    // a bug or an unexpected library failure (EX_SOFTWARE)
};

inline int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk: return kExitOk;
    case Status::Code::kInvalidArgument: return kExitUsage;
    case Status::Code::kNotFound:
    case Status::Code::kBadInput:
    case Status::Code::kUnsupported: return kExitBadInput;
    case Status::Code::kIoError: return kExitIoError;
    case Status::Code::kInternal: return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_EXIT_CODES_H_
