// What `verify` reads for the path it is given. The full binary reads a
// bundle in any container (re-compressed, plain tar, unpacked into a
// directory: importer/bundle_repack.h) as the tar.zst it was; the node-side
// gpuforensics-collect, which has no importer, reads the tar.zst only.
#ifndef GPUF_CLI_VERIFY_INPUT_H_
#define GPUF_CLI_VERIFY_INPUT_H_

#include <memory>
#include <string>

#include "common/status.h"

namespace gpuf {

class VerifyInput {
 public:
  virtual ~VerifyInput() = default;
  // The tar.zst to check member by member.
  virtual const std::string& bundle_path() const = 0;
  // True when it was re-packed from another container.
  virtual bool repacked() const = 0;
};

// BadInput when the path holds another tool's capture (it has no manifest).
Result<std::unique_ptr<VerifyInput>> OpenVerifyInput(const std::string& path);

}  // namespace gpuf

#endif  // GPUF_CLI_VERIFY_INPUT_H_
