#include "collector/collect.h"

#include <re2/re2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

#include "collector/bundle_writer.h"
#include "collector/collect_plan.h"
#include "collector/discovery.h"
#include "collector/host_root.h"
#include "collector/probe_runner.h"
#include "collector/probe_table.h"
#include "collector/redact/collect_redaction.h"
#include "collector/secrets.h"
#include "collector/subprocess.h"
#include "collector/triage.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/sha256.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

// Runs tasks with at most `jobs` at a time; results keep the task order.
std::vector<ProbeResult> RunTasks(const std::vector<ProbeTask>& tasks, int first_sequence, int jobs,
                                  const ProbeEnvironment& env) {
  std::vector<ProbeResult> results(tasks.size());
  std::mutex mutex;
  size_t next = 0;
  auto worker = [&] {
    while (true) {
      size_t index;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (next >= tasks.size()) return;
        index = next++;
      }
      results[index] = RunProbe(tasks[index], first_sequence + static_cast<int>(index), env);
    }
  };
  std::vector<std::thread> threads;
  int count = std::max(1, std::min<int>(jobs, static_cast<int>(tasks.size())));
  for (int i = 0; i < count; ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return results;
}

// The host's driver probes, run on a thread of their own while the caller
// goes on. With fewer than two jobs there is no share to give them: they run
// in Wait, after whatever the caller ran meanwhile.
class HostDriverRun {
 public:
  HostDriverRun(std::vector<ProbeTask> tasks, int first_sequence, int jobs, const ProbeEnvironment& env)
      : tasks_(std::move(tasks)), first_sequence_(first_sequence), env_(env) {
    jobs_ = jobs < 2 || tasks_.empty() ? 0 : std::min<int>(jobs / 2, static_cast<int>(tasks_.size()));
    if (jobs_ == 0) return;
    try {
      thread_ = std::thread([this] { results_ = RunTasks(tasks_, first_sequence_, jobs_, env_); });
    } catch (const std::system_error&) {
      jobs_ = 0;
    }
  }
  HostDriverRun(const HostDriverRun&) = delete;
  HostDriverRun& operator=(const HostDriverRun&) = delete;
  ~HostDriverRun() {
    if (thread_.joinable()) thread_.join();
  }

  int size() const { return static_cast<int>(tasks_.size()); }
  // The jobs it took from the caller's share; 0 when it runs in Wait.
  int jobs() const { return jobs_; }

  std::vector<ProbeResult> Wait() {
    if (thread_.joinable()) {
      thread_.join();
    } else {
      results_ = RunTasks(tasks_, first_sequence_, 1, env_);
    }
    return std::move(results_);
  }

 private:
  std::vector<ProbeTask> tasks_;
  int first_sequence_;
  const ProbeEnvironment& env_;
  int jobs_ = 0;
  std::vector<ProbeResult> results_;
  std::thread thread_;
};

int LocalUtcOffsetSeconds(int64_t unix_ns) {
  std::time_t t = static_cast<std::time_t>(unix_ns / 1000000000LL);
  std::tm local{};
  localtime_r(&t, &local);
  return static_cast<int>(local.tm_gmtoff);
}

// Orders artifacts, assigns member names and hashes the staged outputs.
Result<std::vector<BundleMember>> FinishArtifacts(std::vector<ProbeResult>& results, Manifest& manifest) {
  std::stable_sort(results.begin(), results.end(), [](const auto& a, const auto& b) {
    return std::tie(a.artifact.name, a.artifact.instance) < std::tie(b.artifact.name, b.artifact.instance);
  });
  std::vector<BundleMember> members;
  int sequence = 0;
  for (auto& r : results) {
    ++sequence;
    for (auto& output : r.artifact.outputs) {
      for (const auto& staged : r.staged) {
        if (staged.stream != output.stream) continue;
        output.member = ArtifactMemberPath(sequence, r.artifact.name, output.stream);
        GPUF_ASSIGN_OR_RETURN(output.sha256, Sha256OfFile(staged.staging_path));
        std::error_code ec;
        output.size_bytes = static_cast<int64_t>(std::filesystem::file_size(staged.staging_path, ec));
        members.push_back({output.member, staged.staging_path});
      }
    }
    manifest.artifacts.push_back(r.artifact);
  }
  return members;
}

void PinTimes(Manifest& manifest, int64_t fixed_ns) {
  manifest.started_at_unix_ns = manifest.ended_at_unix_ns = fixed_ns;
  manifest.started_monotonic_ns = manifest.ended_monotonic_ns = 0;
  for (auto& a : manifest.artifacts) {
    a.started_at_unix_ns = a.ended_at_unix_ns = fixed_ns;
    a.duration_ns = 0;
  }
}

std::string OutputPathFor(const CollectOptions& options, const std::string& node, int64_t now_ns) {
  if (!options.output.empty()) return options.output;
  std::string name = DefaultBundleFileName(node, now_ns);
  if (options.output_dir.empty() || options.output_dir == ".") return name;
  return (std::filesystem::path(options.output_dir) / name).string();
}

// A private directory beside the output for outputs as they arrive.
Result<std::string> MakeStagingDir(const std::string& output_path) {
  std::filesystem::path parent = std::filesystem::path(output_path).parent_path();
  if (parent.empty()) parent = ".";
  std::string templ = (parent / ".gpuforensics-staging-XXXXXX").string();
  if (!mkdtemp(templ.data())) {
    return Status::IoError("creating a staging directory in '" + parent.string() + "'", std::strerror(errno));
  }
  return templ;
}

}  // namespace

Result<CollectOutcome> Collect(const CollectOptions& options, const std::atomic<bool>* interrupt) {
  const int64_t started_wall = WallClockNowNs();
  const int64_t started_mono = MonotonicNowNs();
  GPUF_ASSIGN_OR_RETURN(HostRoot host, HostRoot::Open(options.root));

  Plan plan;
  plan.options = &options;
  plan.host = &host;
  re2::RE2::Options re_options;
  re_options.set_case_sensitive(false);
  re_options.set_log_errors(false);
  std::string pattern = options.plugin_pattern.empty() ? std::string(kDefaultPluginPattern) : options.plugin_pattern;
  plan.plugin_pattern = std::make_unique<re2::RE2>(pattern, re_options);
  if (!plan.plugin_pattern->ok()) {
    return Status::InvalidArgument("--plugin-pattern is not a valid RE2 pattern", plan.plugin_pattern->error());
  }
  GPUF_ASSIGN_OR_RETURN(ExecMode mode, ParseExecMode(options.exec_mode));
  HostExec exec(mode, host, options.path_env);
  plan.exec = &exec;
  plan.node = ResolveNode(options, host);
  plan.kubeconfig = ResolveKubeconfig(options, host, exec);
  plan.have_crictl = exec.Has("crictl");
  plan.have_ctr = exec.Has("ctr");

  const int64_t stamp_ns = options.fixed_time_ns.value_or(started_wall);
  std::string output_path = OutputPathFor(options, plan.node, stamp_ns);
  GPUF_ASSIGN_OR_RETURN(std::string staging, MakeStagingDir(output_path));

  ProbeEnvironment env;
  env.host = &host;
  env.exec = &exec;
  env.staging_dir = staging;
  env.deadline_monotonic_ns = started_mono + options.deadline_ms * kMsToNs;
  env.interrupt = interrupt;
  env.reproducible = options.fixed_time_ns.has_value();

  std::vector<ProbeResult> all;
  int next_sequence = 0;
  auto run_phase = [&](const std::vector<ProbeTask>& tasks, int jobs) {
    std::vector<ProbeResult> results = RunTasks(tasks, next_sequence, jobs, env);
    next_sequence += static_cast<int>(tasks.size());
    all.insert(all.end(), results.begin(), results.end());
    return results;
  };
  std::vector<ProbeResult> phase_one = run_phase(PlanPhaseOne(plan), options.jobs);
  // Everything the host's nvidia-smi could change (device nodes, modules,
  // the journal, the plugin's log files, the containers' states) was read in
  // phase one. What phases two and three read (runtime inspection, cgroups,
  // crictl's view of the logs) it cannot change, so it runs beside them, on
  // a share of the jobs.
  HostDriverRun host_driver(PlanHostDriverProbes(plan), next_sequence, options.jobs, env);
  next_sequence += host_driver.size();
  int jobs = options.jobs - host_driver.jobs();
  std::vector<PluginContainer> containers;
  std::vector<ProbeResult> phase_two = run_phase(PlanPhaseTwo(plan, phase_one, containers), jobs);
  std::vector<Discovered> discovered = DiscoverFromPhaseTwo(plan, phase_one, phase_two, containers);
  run_phase(PlanPhaseThree(plan, discovered), jobs);
  std::vector<ProbeResult> host_driver_results = host_driver.Wait();
  all.insert(all.end(), host_driver_results.begin(), host_driver_results.end());
  run_phase(PlanContainerDriverProbes(plan, discovered), options.jobs);

  Manifest manifest;
  manifest.format = std::string(kBundleFormatName);
  manifest.format_version = kBundleFormatVersion;
  manifest.tool_name = "gpuforensics";
  manifest.tool_version = options.tool_version;
  manifest.node_name = plan.node;
  manifest.hostname = plan.node;
  if (auto id = host.ReadSmallFile("/etc/machine-id", 256); id.ok()) {
    manifest.machine_id = TrimRight(*id, " \r\n");
  }
  if (auto id = host.ReadSmallFile("/proc/sys/kernel/random/boot_id", 256); id.ok()) {
    manifest.boot_id = TrimRight(*id, " \r\n");
  }
  manifest.started_at_unix_ns = started_wall;
  manifest.started_monotonic_ns = started_mono;
  if (const char* tz = std::getenv("TZ")) manifest.tz_env = tz;
  manifest.utc_offset_seconds = LocalUtcOffsetSeconds(started_wall);
  manifest.root = host.root();
  manifest.probe_timeout_ms = options.probe_timeout_ms;
  manifest.deadline_ms = options.deadline_ms;
  manifest.plugin_pattern = pattern;
  manifest.exec_mode = ExecModeName(mode);
  manifest.no_driver = options.no_driver;
  manifest.fixed_time = options.fixed_time_ns.has_value();

  std::string triage = TriageSummary(all, [](const ProbeResult& r, std::string_view stream) {
    return ReadStaged(r, stream);
  });

  if (options.redact) {
    // The default name carries the node's name: a redacted bundle carries its pseudonym.
    auto redacted = RedactCollected(options.redaction, manifest, all);
    Status saved = redacted.ok() ? Status::Ok() : redacted.status();
    if (saved.ok() && options.output.empty()) output_path = OutputPathFor(options, manifest.node_name, stamp_ns);
    if (saved.ok()) saved = SaveCollectedRedaction(*redacted, options.redaction, output_path);
    if (!saved.ok()) {
      std::filesystem::remove_all(staging);
      return saved;
    }
  }
  auto members = FinishArtifacts(all, manifest);
  if (!members.ok()) {
    std::filesystem::remove_all(staging);
    return members.status();
  }
  manifest.ended_at_unix_ns = WallClockNowNs();
  manifest.ended_monotonic_ns = MonotonicNowNs();
  if (interrupt && interrupt->load()) {
    manifest.complete = false;
    manifest.incomplete_reason = "interrupted";
  } else if (manifest.ended_monotonic_ns >= env.deadline_monotonic_ns) {
    manifest.complete = false;
    manifest.incomplete_reason = "deadline";
  }
  if (options.fixed_time_ns) PinTimes(manifest, *options.fixed_time_ns);

  Status written = WriteBundle(output_path, SerializeManifest(manifest), *members, stamp_ns / 1000000000LL);
  std::filesystem::remove_all(staging);
  GPUF_RETURN_IF_ERROR(written);
  return CollectOutcome{output_path, std::move(manifest), triage};
}

}  // namespace gpuf
