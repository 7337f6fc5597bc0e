#include "collector/watch.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "collector/host_exec.h"
#include "collector/identify_node.h"
#include "collector/subprocess.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/json_fields.h"
#include "common/time_format.h"

namespace gpuf {

namespace fs = std::filesystem;

namespace {

constexpr char kStateFile[] = ".gpuforensics-watch.json";

struct WatchState {
  std::string incident;
  std::string bundle;
  int64_t at_unix_ns = 0;
};

WatchState ReadState(const std::string& dir) {
  WatchState state;
  auto text = ReadWholeFile(dir + "/" + kStateFile);
  if (!text.ok()) return state;
  auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object()) return state;
  state.incident = StringField(doc, "incident");
  state.bundle = StringField(doc, "bundle");
  state.at_unix_ns = IntField(doc, "at_unix_ns", 0);
  return state;
}

Status WriteState(const std::string& dir, const WatchState& state) {
  nlohmann::json doc = {{"incident", state.incident}, {"bundle", state.bundle}, {"at_unix_ns", state.at_unix_ns}};
  const std::string path = dir + "/" + kStateFile;
  GPUF_RETURN_IF_ERROR(WriteWholeFile(path + ".tmp", doc.dump(2) + "\n"));
  std::error_code ec;
  fs::rename(path + ".tmp", path, ec);
  if (ec) return Status::IoError("renaming '" + path + "'", ec.message());
  return Status::Ok();
}

// `kubectl get node -o json`, as the collector runs it, bounded.
void MaybeCheckAllocatable(const WatchOptions& options, const HostRoot& host, ChainCheck& check) {
  if (!options.check_allocatable || check.pci_gpus == 0) return;
  auto mode = ParseExecMode(options.collect.exec_mode);
  if (!mode.ok()) return;
  HostExec exec(*mode, host, options.collect.path_env);
  // No journal here: the check runs every few minutes and must stay cheap.
  const IdentifiedNode id = IdentifyNode(options.collect, host, exec, RecognizePlatform(host), "");
  const std::string& node = id.identity.node_name;
  std::vector<std::string> argv = {"kubectl", "--kubeconfig", id.kubectl_kubeconfig, "--request-timeout=5s",
                                   "get", "node", node, "-o", "json"};
  if (id.in_cluster) argv.erase(argv.begin() + 1, argv.begin() + 3);
  PreparedCommand command = exec.Prepare(argv);
  if (command.executable.empty() || (id.kubectl_kubeconfig.empty() && !id.in_cluster) || node.empty()) return;
  const std::string staging = options.out_dir + "/" + kStateFile + ".node";
  CappedFile out(staging, 16 << 20, KeepMode::kHead), err(staging + ".err", 1 << 16, KeepMode::kTail);
  if (!out.Open().ok() || !err.Open().ok()) return;
  CommandSpec spec{command.executable, command.argv, {}, MonotonicNowNs() + 10'000'000'000LL};
  CommandOutcome outcome = RunCommand(spec, out, err, nullptr);
  (void)out.Finish();
  (void)err.Finish();
  auto json = ReadWholeFile(staging);
  std::remove(staging.c_str());
  std::remove((staging + ".err").c_str());
  if (outcome.exit_code == 0 && json.ok()) CheckAllocatable(check, *json);
}

}  // namespace

std::vector<std::string> ApplyRetention(const std::string& dir, int keep, int64_t max_bytes) {
  struct Bundle {
    std::string path;
    fs::file_time_type mtime;
    int64_t size;
  };
  std::vector<Bundle> bundles;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file(ec) || name.rfind("gpuforensics-", 0) != 0 ||
        name.size() < kBundleSuffix.size() || name.compare(name.size() - kBundleSuffix.size(), std::string::npos,
                                                            kBundleSuffix) != 0) {
      continue;
    }
    bundles.push_back({entry.path().string(), entry.last_write_time(ec), static_cast<int64_t>(entry.file_size(ec))});
  }
  std::sort(bundles.begin(), bundles.end(), [](const auto& a, const auto& b) { return a.mtime > b.mtime; });
  std::vector<std::string> removed;
  int64_t total = 0;
  for (size_t i = 0; i < bundles.size(); ++i) {
    total += bundles[i].size;
    // The newest bundle always stays: it is the evidence of now.
    bool over = static_cast<int>(i) >= keep || (i > 0 && total > max_bytes);
    if (over && fs::remove(bundles[i].path, ec)) removed.push_back(bundles[i].path);
  }
  return removed;
}

Result<WatchOutcome> Watch(const WatchOptions& options, const std::atomic<bool>* interrupt) {
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) return Status::IoError("creating '" + options.out_dir + "'", ec.message());
  GPUF_ASSIGN_OR_RETURN(HostRoot host, HostRoot::Open(options.collect.root));
  re2::RE2::Options re_options;
  re_options.set_case_sensitive(false);
  re_options.set_log_errors(false);
  const std::string pattern = options.collect.plugin_pattern.empty() ? std::string(kDefaultPluginPattern)
                                                                     : options.collect.plugin_pattern;
  re2::RE2 plugin_pattern(pattern, re_options);
  if (!plugin_pattern.ok()) {
    return Status::InvalidArgument("--plugin-pattern is not a valid RE2 pattern", plugin_pattern.error());
  }

  WatchOutcome outcome;
  outcome.check = CheckChain(host, plugin_pattern);
  MaybeCheckAllocatable(options, host, outcome.check);
  if (outcome.check.healthy()) {
    outcome.action = "healthy";
    return outcome;
  }
  const WatchState last = ReadState(options.out_dir);
  const std::string incident = outcome.check.IncidentKey();
  const int64_t now = WallClockNowNs();
  if (incident == last.incident) {
    outcome.action = "already_captured";
    outcome.bundle = last.bundle;
    return outcome;
  }
  if (last.at_unix_ns > 0 && now - last.at_unix_ns < options.min_interval_s * 1'000'000'000LL) {
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
  GPUF_RETURN_IF_ERROR(WriteState(options.out_dir, {incident, collected.bundle_path, now}));
  outcome.removed = ApplyRetention(options.out_dir, options.keep, options.max_bytes);
  return outcome;
}

}  // namespace gpuf
