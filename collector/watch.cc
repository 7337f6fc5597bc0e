#include "collector/watch.h"

#include <fcntl.h>
#include <re2/re2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "collector/host_exec.h"
#include "collector/identify_node.h"
#include "collector/subprocess.h"
#include "common/bundle_layout.h"
#include "common/byte_pattern.h"
#include "common/file_io.h"
#include "common/json_bytes.h"
#include "common/json_fields.h"
#include "common/output_file.h"
#include "common/time_format.h"
#include "common/work_dir.h"

namespace gpuf {

namespace fs = std::filesystem;

namespace {

constexpr char kStateFile[] = ".gpuforensics-watch.json";
constexpr char kLockFile[] = ".gpuforensics-watch.lock";

struct WatchState {
  std::string incident;
  std::string bundle;
  int64_t at_unix_ns = 0;
  std::vector<std::string> captures;  // file names this watch wrote in the directory, oldest first
};

// "gpuforensics-<node>-<time>.tar.zst", the name collect gives a bundle in a directory.
bool IsCaptureName(const std::string& name) {
  return name.find('/') == std::string::npos && name.starts_with("gpuforensics-") && name.ends_with(".tar.zst");
}

WatchState ReadState(const std::string& dir) {
  WatchState state;
  auto text = ReadWholeFile(dir + "/" + kStateFile, 16 << 20);
  if (!text.ok()) return state;
  auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object()) return state;
  state.incident = BytesField(doc, "incident");
  state.bundle = BytesField(doc, "bundle");
  state.at_unix_ns = IntField(doc, "at_unix_ns", 0);
  if (doc["captures"].is_array()) {
    for (const auto& item : doc["captures"]) {
      // Only names a capture of this watch can have, in this directory: an
      // index edited to name "../x", its lock or another file removes nothing.
      std::optional<std::string> name = BytesFromJson(item);
      if (name && IsCaptureName(*name)) state.captures.push_back(*name);
    }
  }
  return state;
}

// The index is replaced only when absent or a regular file (a link or a FIFO planted there is refused).
Status CheckIndexReplaceable(const std::string& dir) {
  const std::string path = dir + "/" + kStateFile;
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return Status::Ok();
  return Status::Exists("the watch index '" + path + "' is not a regular file", "it is never replaced");
}

Status WriteState(const std::string& dir, const WatchState& state) {
  nlohmann::json doc = {{"incident", state.incident},
                        {"bundle", state.bundle},
                        {"at_unix_ns", state.at_unix_ns},
                        {"captures", state.captures}};
  GPUF_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(dir + "/" + kStateFile, Replace::kRegularFile));
  GPUF_RETURN_IF_ERROR(out.Write(DumpJson(doc, 2, NonUtf8::kByteArray) + "\n"));
  return out.Publish(0600);
}

// One watch at a time per directory: a second one waits, then finds the
// incident captured. Released when the process ends.
class DirectoryLock {
 public:
  static Result<DirectoryLock> Acquire(const std::string& dir) {
    const std::string path = dir + "/" + kLockFile;
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return Status::IoError("opening '" + path + "'", std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return Status::IoError("'" + path + "' is not a regular file");
    }
    while (flock(fd, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      return Status::IoError("locking '" + path + "'", std::strerror(err));
    }
    return DirectoryLock(fd);
  }
  DirectoryLock(DirectoryLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DirectoryLock(const DirectoryLock&) = delete;
  ~DirectoryLock() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  explicit DirectoryLock(int fd) : fd_(fd) {}
  int fd_;
};

// `kubectl get node -o json`, as the collector runs it, bounded; its output
// goes to a private work directory.
void MaybeCheckAllocatable(const WatchOptions& options, const HostRoot& host, ChainCheck& check) {
  if (!options.check_allocatable || check.pci_gpus == 0) return;
  auto mode = ParseExecMode(options.collect.exec_mode);
  if (!mode.ok()) return;
  const PlatformMatch platform = RecognizePlatform(host);
  HostExec exec(*mode, host, options.collect.path_env, PlatformToolDirs(platform.distribution));
  // No journal here: the check runs every few minutes and must stay cheap.
  const IdentifiedNode id = IdentifyNode(options.collect, host, exec, platform, "");
  const std::string& node = id.identity.node_name;
  std::vector<std::string> argv = {"kubectl", "--kubeconfig", id.kubectl_kubeconfig, "--request-timeout=5s",
                                   "get", "node", node, "-o", "json"};
  if (id.in_cluster) argv.erase(argv.begin() + 1, argv.begin() + 3);
  PreparedCommand command = exec.Prepare(argv);
  if (command.executable.empty() || (id.kubectl_kubeconfig.empty() && !id.in_cluster) || node.empty()) return;
  auto work = WorkDir::Create(options.out_dir, ".gpuforensics-watch-");
  if (!work.ok()) return;
  const std::string staging = *work / "node.json";
  CappedFile out(staging, 16 << 20, KeepMode::kHead), err(*work / "node.err", 1 << 16, KeepMode::kTail);
  if (!out.Open().ok() || !err.Open().ok()) return;
  CommandSpec spec{command.executable, command.argv, {}, MonotonicNowNs() + 10'000'000'000LL};
  CommandOutcome outcome = RunCommand(spec, out, err, nullptr);
  (void)out.Finish();
  (void)err.Finish();
  auto json = ReadWholeFile(staging);
  if (outcome.exit_code == 0 && json.ok()) CheckAllocatable(check, *json);
}

}  // namespace

std::vector<std::string> ApplyRetention(const std::string& dir, std::vector<std::string>& captures, int keep,
                                        int64_t max_bytes) {
  // Only what this watch wrote, by the index's order (not mtimes, which a
  // clock step can reorder); the newest always stays.
  std::vector<std::string> present;
  for (const auto& name : captures) {
    struct stat st {};
    if (lstat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) present.push_back(name);
  }
  std::vector<std::string> removed, kept;
  int64_t total = 0;
  for (size_t i = present.size(); i-- > 0;) {  // newest first
    const std::string path = dir + "/" + present[i];
    struct stat st {};
    int64_t size = lstat(path.c_str(), &st) == 0 ? st.st_size : 0;
    total += size;
    size_t rank = present.size() - 1 - i;
    bool over = rank > 0 && (static_cast<int>(rank) >= keep || total > max_bytes);
    if (over && unlink(path.c_str()) == 0) {
      removed.push_back(path);
    } else {
      kept.insert(kept.begin(), present[i]);
    }
  }
  captures = std::move(kept);
  return removed;
}

Result<WatchOutcome> Watch(const WatchOptions& options, const std::atomic<bool>* interrupt) {
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) return Status::IoError("creating '" + options.out_dir + "'", ec.message());
  GPUF_ASSIGN_OR_RETURN(HostRoot host, HostRoot::Open(options.collect.root));
  re2::RE2::Options re_options = BytePatternOptions();
  re_options.set_case_sensitive(false);
  const std::string pattern = options.collect.plugin_pattern.empty() ? std::string(kDefaultPluginPattern)
                                                                     : options.collect.plugin_pattern;
  re2::RE2 plugin_pattern(pattern, re_options);
  if (!plugin_pattern.ok()) {
    return Status::InvalidArgument("--plugin-pattern is not a valid RE2 pattern", plugin_pattern.error());
  }

  WatchOutcome outcome;
  outcome.check = CheckChain(host, plugin_pattern);
  // A root that shows no PCI bus is not a node seen healthy: it is not a node's root at all.
  if (!outcome.check.pci_readable) {
    return Status::BadInput("'" + options.collect.root + "' has no readable /sys/bus/pci/devices",
                            "not a node's root, or sysfs is not mounted there; nothing can be judged");
  }
  MaybeCheckAllocatable(options, host, outcome.check);
  if (outcome.check.healthy()) {
    outcome.action = "healthy";
    return outcome;
  }
  // From here to the state written, one watch at a time.
  GPUF_ASSIGN_OR_RETURN(DirectoryLock lock, DirectoryLock::Acquire(options.out_dir));
  // Checked before collecting: a bundle its index could not record would escape retention.
  GPUF_RETURN_IF_ERROR(CheckIndexReplaceable(options.out_dir));
  WatchState last = ReadState(options.out_dir);
  const std::string incident = outcome.check.IncidentKey();
  const int64_t now = WallClockNowNs();
  struct stat captured {};
  const bool bundle_present = !last.bundle.empty() && stat(last.bundle.c_str(), &captured) == 0;
  if (incident == last.incident && bundle_present) {
    outcome.action = "already_captured";
    outcome.bundle = last.bundle;
    return outcome;
  }
  // A clock stepped back since the last capture tells no interval: capture rather than miss an incident.
  const int64_t since_last = now - last.at_unix_ns;
  if (last.at_unix_ns > 0 && since_last >= 0 && since_last < options.min_interval_s * 1'000'000'000LL) {
    outcome.action = "rate_limited";
    outcome.bundle = last.bundle;
    return outcome;
  }
  CollectOptions collect = options.collect;
  collect.output.clear();
  collect.output_dir = options.out_dir;
  GPUF_ASSIGN_OR_RETURN(CollectOutcome collected, Collect(collect, interrupt));
  outcome.action = "collected";
  outcome.bundle = collected.bundle_path;
  outcome.complete = collected.manifest.complete;
  WatchState next{incident, collected.bundle_path, now, last.captures};
  next.captures.push_back(fs::path(collected.bundle_path).filename().string());
  outcome.removed = ApplyRetention(options.out_dir, next.captures, options.keep, options.max_bytes);
  GPUF_RETURN_IF_ERROR(WriteState(options.out_dir, next));
  return outcome;
}

}  // namespace gpuf
