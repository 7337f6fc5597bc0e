#include "collector/host_exec.h"

#include <string_view>

#include "collector/subprocess.h"

namespace gpuf {

namespace {

constexpr const char* kHostPathDirs[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                         "/usr/bin",        "/sbin",          "/bin"};

// The driver's tools a driver container keeps in its own root.
constexpr std::string_view kDriverRootTools[] = {"nvidia-smi"};

}  // namespace

Result<ExecMode> ParseExecMode(const std::string& name) {
  if (name == "path") return ExecMode::kPath;
  if (name == "chroot") return ExecMode::kChroot;
  if (name == "nsenter") return ExecMode::kNsenter;
  return Status::InvalidArgument("--exec must be path, chroot or nsenter, not '" + name + "'");
}

const char* ExecModeName(ExecMode mode) {
  switch (mode) {
    case ExecMode::kPath: return "path";
    case ExecMode::kChroot: return "chroot";
    case ExecMode::kNsenter: return "nsenter";
  }
  return "path";
}

std::string HostExec::ToolOnPathUnder(const std::string& root, const std::string& tool) const {
  for (const char* dir : kHostPathDirs) {
    std::string in_root = JoinHostPath(dir, tool);
    if (host_.Lstat(root == "/" ? in_root : root + in_root).ok()) return in_root;
  }
  return "";
}

bool HostExec::HostHasTool(const std::string& tool) const {
  if (tool.find('/') != std::string::npos) return host_.Lstat(tool).ok();
  return !ToolOnPathUnder("/", tool).empty();
}

std::string HostExec::PlatformTool(const std::string& tool) const {
  if (tool.find('/') != std::string::npos) return "";
  for (const auto& dir : tool_dirs_) {
    std::string path = JoinHostPath(dir, tool);
    if (host_.Lstat(path).ok()) return path;
  }
  return "";
}

bool HostExec::FoundNormally(const std::string& tool) const {
  if (mode_ == ExecMode::kPath) return !FindExecutable(tool, path_env_).empty() || !PlatformTool(tool).empty();
  return HostHasTool(tool) || !PlatformTool(tool).empty();
}

std::string HostExec::DriverRootTool(const std::string& tool) const {
  bool driver_tool = false;
  for (std::string_view t : kDriverRootTools) driver_tool = driver_tool || t == tool;
  return driver_tool ? ToolOnPathUnder(kDriverRoot, tool) : "";
}

bool HostExec::Has(const std::string& tool) const { return FoundNormally(tool) || !DriverRootTool(tool).empty(); }

// chroot into the driver container's root as this machine sees it, or, with
// nsenter, as the host does.
// The tool is named by its path in that root: chroot searches the caller's
// PATH, which need not name the root's directories.
PreparedCommand HostExec::PrepareInDriverRoot(const std::string& tool_path,
                                              const std::vector<std::string>& argv) const {
  PreparedCommand prepared;
  const std::string wrapper = mode_ == ExecMode::kNsenter ? "nsenter" : "chroot";
  prepared.executable = FindExecutable(wrapper, path_env_);
  if (prepared.executable.empty()) {
    prepared.missing = "'" + wrapper + "' (to run " + argv.at(0) + " in the driver container's root) not found on PATH";
    return prepared;
  }
  if (mode_ == ExecMode::kNsenter) {
    prepared.argv = {"nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--", "chroot", kDriverRoot};
  } else {
    prepared.argv = {"chroot", host_.Outside(kDriverRoot)};
  }
  prepared.argv.push_back(tool_path);
  prepared.argv.insert(prepared.argv.end(), argv.begin() + 1, argv.end());
  return prepared;
}

PreparedCommand HostExec::Prepare(const std::vector<std::string>& argv) const {
  PreparedCommand prepared;
  const std::string& tool = argv.at(0);
  if (!FoundNormally(tool)) {
    std::string in_driver_root = DriverRootTool(tool);
    if (!in_driver_root.empty()) return PrepareInDriverRoot(in_driver_root, argv);
  }
  const std::string off_path = PlatformTool(tool);
  if (mode_ == ExecMode::kPath) {
    prepared.executable = FindExecutable(tool, path_env_);
    if (prepared.executable.empty() && !off_path.empty()) prepared.executable = host_.Outside(off_path);
    prepared.argv = argv;
    if (prepared.executable.empty()) prepared.missing = "'" + tool + "' not found on PATH";
    return prepared;
  }
  std::vector<std::string> in_root = argv;
  if (!HostHasTool(tool)) {
    if (off_path.empty()) {
      prepared.missing = "'" + tool + "' not found on the host's PATH under " + host_.root();
      return prepared;
    }
    in_root[0] = off_path;  // chroot and nsenter search the standard PATH only
  }
  const std::string wrapper = mode_ == ExecMode::kChroot ? "chroot" : "nsenter";
  prepared.executable = FindExecutable(wrapper, path_env_);
  if (prepared.executable.empty()) {
    prepared.missing = "'" + wrapper + "' (for --exec " + wrapper + ") not found on PATH";
    return prepared;
  }
  if (mode_ == ExecMode::kChroot) {
    prepared.argv = {"chroot", host_.root()};
  } else {
    prepared.argv = {"nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--"};
  }
  prepared.argv.insert(prepared.argv.end(), in_root.begin(), in_root.end());
  return prepared;
}

std::string HostExec::HostPathArg(const std::string& host_path) const {
  return mode_ == ExecMode::kPath ? host_.Outside(host_path) : host_path;
}

std::vector<std::string> HostExec::JournalRootArgs() const {
  if (mode_ != ExecMode::kPath || host_.root() == "/") return {};
  return {"--root", host_.root()};
}

}  // namespace gpuf
