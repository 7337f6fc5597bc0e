// How host commands are found and started.
//
// kPath (default): the first match on the collector's PATH. Right on the node
// itself, and in tests where stubs stand first on PATH; with --root the
// commands still see this machine's file system, so host paths in their
// arguments are written with the root prefix (journalctl gets --root).
//
// kChroot: `chroot ROOT tool ...`, the host's own binaries and libraries,
// for a privileged pod with the host's / mounted at ROOT.
//
// kNsenter: `nsenter -t 1 -m -u -i -n -p -- tool ...`, the host's binaries
// in the host's namespaces, for a pod with hostPID (and CAP_SYS_ADMIN).
//
// In the last two modes a tool counts as present when the host has it on a
// standard PATH directory under ROOT, and host paths are passed unprefixed.
//
// A tool missing there is looked for in the platform's own tool directories
// (common/platforms.h: RKE2's /var/lib/rancher/rke2/bin, GKE's
// /home/kubernetes/bin, ...) under ROOT and run by its full path. In path
// mode that is its path under ROOT as this machine sees it: --root names the
// live host's / (a pod's hostPath mount), so the binary is the host's own;
// a statically linked one (RKE2's crictl and kubectl) runs from a pod, a
// dynamically linked one needs --exec chroot to find its libraries.
//
// In every mode, nvidia-smi missing from the host is looked for in the GPU
// Operator's driver container, whose root is mounted on the host at
// /run/nvidia/driver, and run there with chroot: its own binary and libraries.
#ifndef GPUF_COLLECTOR_HOST_EXEC_H_
#define GPUF_COLLECTOR_HOST_EXEC_H_

#include <string>
#include <vector>

#include "collector/host_root.h"
#include "common/status.h"

namespace gpuf {

enum class ExecMode { kPath, kChroot, kNsenter };

// "path" | "chroot" | "nsenter"; InvalidArgument otherwise.
Result<ExecMode> ParseExecMode(const std::string& name);
const char* ExecModeName(ExecMode mode);

struct PreparedCommand {
  std::string executable;         // absolute path to spawn; "" when missing
  std::vector<std::string> argv;  // what to spawn, wrapper included
  std::string missing;            // why it cannot run, when executable is ""
};

class HostExec {
 public:
  // `platform_tool_dirs`: host directories the platform keeps tools in.
  HostExec(ExecMode mode, const HostRoot& host, std::string path_env,
           std::vector<std::string> platform_tool_dirs = {})
      : mode_(mode), host_(host), path_env_(std::move(path_env)), tool_dirs_(std::move(platform_tool_dirs)) {}

  ExecMode mode() const { return mode_; }
  // True when `tool` can be run on the host.
  bool Has(const std::string& tool) const;
  PreparedCommand Prepare(const std::vector<std::string>& argv) const;
  // A host path as the host command must be given it.
  std::string HostPathArg(const std::string& host_path) const;
  // journalctl arguments that point it at the host's journal.
  std::vector<std::string> JournalRootArgs() const;

  static constexpr const char* kDriverRoot = "/run/nvidia/driver";

 private:
  // The tool's path on a standard PATH directory under `root` (a host path),
  // as seen from inside that root; "" when none has it.
  std::string ToolOnPathUnder(const std::string& root, const std::string& tool) const;
  bool HostHasTool(const std::string& tool) const;
  // The tool's host path in a platform tool directory, "" when none has it.
  std::string PlatformTool(const std::string& tool) const;
  bool FoundNormally(const std::string& tool) const;
  // The tool's path inside the driver container's root, "" when it has none.
  std::string DriverRootTool(const std::string& tool) const;
  PreparedCommand PrepareInDriverRoot(const std::string& tool_path, const std::vector<std::string>& argv) const;

  ExecMode mode_;
  const HostRoot& host_;
  std::string path_env_;
  std::vector<std::string> tool_dirs_;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_HOST_EXEC_H_
