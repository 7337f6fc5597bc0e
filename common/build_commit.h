// The git commit a binary was built from, as CMake read it at configure
// time (`git rev-parse --short=12 HEAD`; a new commit reconfigures), or
// "unknown" when the source is not a git checkout. --version prints it.
#ifndef GPUF_COMMON_BUILD_COMMIT_H_
#define GPUF_COMMON_BUILD_COMMIT_H_

#include <string_view>

namespace gpuf {

std::string_view BuildCommit();

}  // namespace gpuf

#endif  // GPUF_COMMON_BUILD_COMMIT_H_
