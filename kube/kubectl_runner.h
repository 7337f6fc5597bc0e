// Runs the user's own kubectl, so that whatever reaches their cluster
// (exec credential plugins, OIDC, client certificates, a proxy, in-cluster
// config) reaches it for kubectl-gpuforensics too. Every call gets the
// global flags the user gave (--kubeconfig, --context, --namespace) and
// runs as collector/subprocess.h runs commands: own process group, stdin
// from /dev/null unless given, a deadline, and an interrupt that ends it.
#ifndef GPUF_KUBE_KUBECTL_RUNNER_H_
#define GPUF_KUBE_KUBECTL_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace gpuf {

class KubectlRunner {
 public:
  // `executable`: an absolute path. `work_dir`: a private directory for the
  // captured output of each call (the caller removes it).
  KubectlRunner(std::string executable, std::vector<std::string> global_args, std::string work_dir);

  // Runs `kubectl GLOBAL... ARGS...` and returns its stdout. Fails with
  // IoError carrying kubectl's last line on stderr ("Error from server
  // (Forbidden): ...") when it exits non-zero, printed more than
  // `cap_bytes`, or ran past `deadline_ns` (CLOCK_MONOTONIC), or was interrupted.
  static constexpr int64_t kTextCapBytes = 64LL << 20;  // a node list of a large cluster
  Result<std::string> Output(const std::vector<std::string>& args, int64_t deadline_ns,
                             const std::atomic<bool>* interrupt, int64_t cap_bytes = kTextCapBytes) const;

  // As Output, but stdout goes into `path` (up to `cap_bytes`), and the
  // stderr text is returned also on failure, through `err`. kubectl reads
  // `stdin_path` as its stdin (`exec -i`); "" is /dev/null.
  Status ToFile(const std::vector<std::string>& args, const std::string& path, int64_t cap_bytes,
                int64_t deadline_ns, const std::atomic<bool>* interrupt, std::string& err,
                const std::string& stdin_path = "") const;

  const std::string& work_dir() const { return work_dir_; }

 private:
  std::string NextCapturePath() const;

  std::string executable_;
  std::vector<std::string> global_args_;
  std::string work_dir_;
  mutable std::atomic<int> calls_{0};
};

// The last non-empty line of a command's stderr, "" when none.
std::string LastLine(const std::string& text);

}  // namespace gpuf

#endif  // GPUF_KUBE_KUBECTL_RUNNER_H_
