#include "collector/collect.h"

#include <re2/re2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "collector/access_report.h"
#include "collector/bundle_manifest.h"
#include "collector/bundle_writer.h"
#include "collector/collect_plan.h"
#include "collector/discovery.h"
#include "collector/host_root.h"
#include "collector/identify_node.h"
#include "collector/probe_runner.h"
#include "collector/probe_schedule.h"
#include "collector/probe_table.h"
#include "collector/redact/collect_redaction.h"
#include "collector/runtime_sockets.h"
#include "collector/secrets.h"
#include "collector/subprocess.h"
#include "collector/triage.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/output_file.h"
#include "common/platforms.h"
#include "common/sha256.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "common/work_dir.h"

namespace gpuf {

namespace {

int LocalUtcOffsetSeconds(int64_t unix_ns) {
  std::time_t t = static_cast<std::time_t>(unix_ns / 1000000000LL);
  std::tm local{};
  localtime_r(&t, &local);
  return static_cast<int>(local.tm_gmtoff);
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

// What `kubectl get node NAME` answered: the Node, no such Node (the name
// is wrong), or nothing to go by (not asked, no access, no answer).
std::optional<bool> NodeFound(const std::vector<ProbeResult>& results) {
  for (const auto& r : results) {
    if (r.artifact.name != artifact::kK8sNode) continue;
    if (r.artifact.status == ProbeStatus::kOk) return true;
    std::string said = ReadStaged(r, kStreamStderr);
    if (r.artifact.status == ProbeStatus::kNonzeroExit && said.find("(NotFound)") != std::string::npos) return false;
  }
  return std::nullopt;
}

// The probes whose output was lost on the way into the bundle (a full disk
// while staging, a failed redaction): "name: why", for stderr.
std::vector<std::string> NotStored(const std::vector<ProbeResult>& results) {
  std::vector<std::string> lines;
  for (const auto& r : results) {
    if (!r.not_stored) continue;
    const ManifestArtifact& a = r.artifact;
    lines.push_back(a.name + (a.instance.empty() ? "" : " " + a.instance) + ": " + a.error);
  }
  return lines;
}

}  // namespace

Result<CollectOutcome> Collect(const CollectOptions& options, const std::atomic<bool>* interrupt,
                               CollectProgress* progress) {
  const int64_t started_wall = WallClockNowNs();
  const int64_t started_mono = MonotonicNowNs();
  GPUF_ASSIGN_OR_RETURN(HostRoot host, HostRoot::Open(options.root));
  if (options.node_object && !options.node.empty() && options.node != options.node_object->name) {
    return Status::InvalidArgument("--node '" + options.node + "' but --node-object is Node '" +
                                   options.node_object->name + "'");
  }

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
  const PlatformMatch platform = RecognizePlatform(host);
  HostExec exec(mode, host, options.path_env, PlatformToolDirs(platform.distribution));
  plan.exec = &exec;
  plan.have_crictl = exec.Has("crictl");
  plan.have_ctr = exec.Has("ctr");
  if (mode != ExecMode::kPath || host.root() == "/") {
    plan.crictl_unreachable = MissingCrictlSocket(CrictlEndpoints(options.runtime_endpoint, host), host);
    plan.ctr_unreachable = MissingContainerdSocket(options.containerd_address, host);
  }

  // The staging directory sits beside the output, whose directory does not
  // depend on the node's name; the name may need the kubelet's journal.
  const int64_t stamp_ns = options.fixed_time_ns.value_or(started_wall);
  // Outputs as they arrive; unredacted until redaction ran, so a signal
  // removes it too (work_dir.h).
  GPUF_ASSIGN_OR_RETURN(WorkDir staging_dir,
                        WorkDir::Beside(OutputPathFor(options, "", stamp_ns), ".gpuforensics-staging-"));
  const std::string& staging = staging_dir.path();
  plan.unit_dirs = SystemdUnitDirs(platform.distribution);
  if (platform.distribution && platform.distribution->kubelet_log != "journal") {
    plan.kubelet_log_file = std::string(platform.distribution->kubelet_log);
  }
  const IdentifiedNode node = IdentifyNode(options, host, exec, platform, staging);
  if (const ManifestNameStep& own = node.identity.kubelet_name;
      !own.value.empty() && options.node_object && own.value != options.node_object->name) {
    return Status::InvalidArgument("--node-object is Node '" + options.node_object->name + "', but this node's " +
                                   "kubelet calls itself '" + own.value + "' (" + own.source + ", " + own.from + ")");
  }
  plan.node = node.identity.node_name;
  plan.kubeconfig = node.kubectl_kubeconfig;
  plan.kubeconfig_in_cluster = node.in_cluster;
  std::string output_path = OutputPathFor(options, plan.node, stamp_ns);
  const Replace replace = options.force ? Replace::kRegularFile : Replace::kNever;
  GPUF_RETURN_IF_ERROR(CheckOutputPath(output_path, replace));

  ProbeEnvironment env;
  env.host = &host;
  env.exec = &exec;
  env.staging_dir = staging;
  env.deadline_monotonic_ns = started_mono + options.deadline_ms * kMsToNs;
  env.interrupt = interrupt;
  env.reproducible = options.fixed_time_ns.has_value();
  env.progress = progress;

  std::vector<ProbeResult> all = RunCollectionProbes(plan, options.jobs, env);
  if (options.node_object) {
    GPUF_ASSIGN_OR_RETURN(std::vector<ProbeResult> supplied, SuppliedResults(*options.node_object, staging));
    for (auto& result : supplied) all.push_back(std::move(result));
  }

  Manifest manifest = NewBundleManifest(options.tool_version);
  manifest.node_name = plan.node;
  manifest.hostname = node.identity.hostname;
  manifest.node_name_source = node.identity.node_name_source;
  manifest.node_name_steps = node.identity.steps;
  manifest.kubeconfig = node.identity.kubeconfig;
  manifest.kubeconfig_source = node.identity.kubeconfig_source;
  manifest.platform = platform.Ids();
  manifest.platform_evidence = platform.evidence;
  manifest.node_found = NodeFound(all);
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

  const StagedReader read_staged = [](const ProbeResult& r, std::string_view stream) { return ReadStaged(r, stream); };
  std::string triage = TriageSummary(all, manifest, read_staged, *plan.plugin_pattern);
  std::vector<std::string> refused = RefusedProbes(all, read_staged);

  if (options.redact) {
    // The default name carries the node's name: a redacted bundle carries its pseudonym.
    auto redacted = RedactCollected(options.redaction, manifest, all);
    Status saved = redacted.ok() ? Status::Ok() : redacted.status();
    if (saved.ok() && options.output.empty()) output_path = OutputPathFor(options, manifest.node_name, stamp_ns);
    if (saved.ok()) saved = SaveCollectedRedaction(*redacted, options.redaction, output_path);
    if (!saved.ok()) return saved;
  }
  auto members = AddStagedArtifacts(all, manifest);
  if (!members.ok()) return members.status();
  manifest.ended_at_unix_ns = WallClockNowNs();
  manifest.ended_monotonic_ns = MonotonicNowNs();
  if (interrupt && interrupt->load()) {
    manifest.complete = false;
    manifest.incomplete_reason = "interrupted";
  } else if (manifest.ended_monotonic_ns >= env.deadline_monotonic_ns) {
    manifest.complete = false;
    manifest.incomplete_reason = "deadline";
  }
  std::vector<std::string> not_stored = NotStored(all);
  if (!not_stored.empty() && manifest.complete) {
    manifest.complete = false;
    manifest.incomplete_reason = "members_not_written";
  }
  if (options.fixed_time_ns) PinTimes(manifest, *options.fixed_time_ns);

  const std::string manifest_json = SerializeManifest(manifest);
  GPUF_RETURN_IF_ERROR(WriteBundle(output_path, manifest_json, *members, stamp_ns / 1000000000LL, replace));
  manifest.source_sha256 = Sha256Hex(manifest_json);
  return CollectOutcome{output_path, std::move(manifest), triage, std::move(refused), std::move(not_stored)};
}

}  // namespace gpuf
