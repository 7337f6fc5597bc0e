#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/collect_progress_reporter.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/node_name_option.h"
#include "cli/options.h"
#include "collector/collect.h"
#include "collector/probe_table.h"
#include "common/exit_codes.h"
#include "common/time_format.h"

#ifndef GPUF_VERSION
#define GPUF_VERSION "0.0.0"
#endif

namespace gpuf {

namespace {

// --output -: the bundle is written to a private directory in $TMPDIR,
// then copied to stdout (kubectl exec streams it back to a laptop).
Result<std::string> MakeStdoutStaging() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpuforensics-collect-XXXXXX";
  if (!mkdtemp(templ.data())) return Status::IoError("creating a directory in $TMPDIR", std::strerror(errno));
  return templ;
}

Status CopyToStdout(const std::string& path) {
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (!in) return Status::IoError("opening '" + path + "'", std::strerror(errno));
  char buf[1 << 16];
  size_t n;
  Status status;
  while (status.ok() && (n = std::fread(buf, 1, sizeof buf, in)) > 0) {
    if (std::fwrite(buf, 1, n, stdout) != n) status = Status::IoError("writing the bundle to stdout", std::strerror(errno));
  }
  if (status.ok() && std::ferror(in)) status = Status::IoError("reading '" + path + "'", std::strerror(errno));
  if (status.ok() && std::fflush(stdout) != 0) status = Status::IoError("writing the bundle to stdout", std::strerror(errno));
  std::fclose(in);
  return status;
}

}  // namespace

int RunCollect(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics collect [options]\n\n"
      "Captures the node's GPU chain read-only into one tar.zst bundle. Run it before\n"
      "any recovery step.\n\noptions");
  options.add_options()
      ("output,o", po::value<std::string>()->value_name("PATH"),
       "bundle path (default gpuforensics-<node>-<UTC time>.tar.zst here), never an existing file; - writes the "
       "bundle to stdout")
      ("force", "replace an existing regular file at --output (never a device, FIFO, directory or link)")
      ("root", po::value<std::string>()->value_name("DIR")->default_value("/"), "where the host's files are (e.g. /host in a pod)")
      ("node", po::value<std::string>()->value_name("NODE"), "node name (default $NODE_NAME, the kubelet's --hostname-override or hostnameOverride, its mirror pods or journal, then the hostname)")
      ("node-object", po::value<std::string>()->value_name("FILE"), "the Node as the API served it (kubectl get node NAME -o json), from FILE or - (stdin): stored as k8s.node where the host has no kubectl to ask; or a v1 List of the Node with the EventList of its events, the PodList of its pods, its device plugin's DaemonSet, a MetricsCapture and the kube-system Namespace, stored as k8s.node, k8s.events, k8s.node_pods, k8s.plugin_daemonset, k8s.metrics and k8s.cluster; kubectl gpuforensics collect passes the List")
      ("kubeconfig", po::value<std::string>()->value_name("FILE"), "kubeconfig for kubectl (default $KUBECONFIG, the kubelet's --kubeconfig, the platform's, then in a pod its service account)")
      ("plugin-pattern", po::value<std::string>()->value_name("RE2")->default_value(std::string(kDefaultPluginPattern)),
       "RE2 (case-insensitive) matching device-plugin container, pod and log names")
      ("runtime-endpoint", po::value<std::string>()->value_name("ENDPOINT"),
       "crictl --runtime-endpoint (default: the host's /etc/crictl.yaml, else crictl's own endpoints)")
      ("containerd-address", po::value<std::string>()->value_name("SOCKET"),
       "ctr --address when crictl is absent (default: /run/containerd/containerd.sock)")
      ("timeout", po::value<double>()->value_name("SECONDS")->default_value(10), "seconds one probe may take")
      ("journal-timeout", po::value<double>()->value_name("SECONDS")->default_value(30), "seconds one journal slice may take")
      ("deadline", po::value<double>()->value_name("SECONDS")->default_value(120), "seconds the whole collection may take")
      ("jobs,j", po::value<int>()->value_name("N")->default_value(8), "probes run at once")
      ("exec", po::value<std::string>()->value_name("MODE")->default_value("path"),
       "how host commands run: path (first on PATH), chroot (chroot ROOT tool), nsenter (host PID 1's namespaces)")
      ("no-driver", "skip probes that touch the GPU driver (nvidia-smi on the host and in containers)")
      ("fixed-time", po::value<std::string>()->value_name("TIME"), "stamp every time with this RFC 3339 time (reproducible samples)")
      ("redact", "pseudonymize host and user names, addresses, cloud ids and secrets before anything is stored "
                 "(see gpuforensics redact --help; the --map and --redact-* options imply it)");
  AddRedactOptions(options);
  auto parsed = ParseOptions("collect", args, options, po::positional_options_description());
  if (!parsed.ok()) return ReportFailure("collect", parsed.status());
  if (parsed->help) return PrintHelp("collect", options, po::positional_options_description());
  const auto& v = parsed->values;
  CollectOptions o;
  o.root = v["root"].as<std::string>();
  if (v.count("output")) o.output = v["output"].as<std::string>();
  o.force = v.count("force") > 0;
  if (v.count("node")) o.node = v["node"].as<std::string>();
  if (Status names = CheckNodeNames("collect", o.node); !names.ok()) return ReportFailure("collect", names);
  if (v.count("kubeconfig")) o.kubeconfig = v["kubeconfig"].as<std::string>();
  o.plugin_pattern = v["plugin-pattern"].as<std::string>();
  if (v.count("runtime-endpoint")) o.runtime_endpoint = v["runtime-endpoint"].as<std::string>();
  if (v.count("containerd-address")) o.containerd_address = v["containerd-address"].as<std::string>();
  o.probe_timeout_ms = static_cast<int64_t>(v["timeout"].as<double>() * 1000);
  o.journal_timeout_ms = static_cast<int64_t>(v["journal-timeout"].as<double>() * 1000);
  o.deadline_ms = static_cast<int64_t>(v["deadline"].as<double>() * 1000);
  o.jobs = v["jobs"].as<int>();
  o.no_driver = v.count("no-driver") > 0;
  o.exec_mode = v["exec"].as<std::string>();
  if (o.probe_timeout_ms <= 0 || o.deadline_ms <= 0 || o.journal_timeout_ms <= 0 || o.jobs < 1) {
    return ReportFailure("collect", Status::InvalidArgument("--timeout, --deadline and --jobs must be positive"));
  }
  if (v.count("node-object")) {
    auto node = ReadSuppliedNode(v["node-object"].as<std::string>(), o.probe_timeout_ms);
    if (!node.ok()) return ReportFailure("collect", node.status());
    o.node_object = std::move(*node);
  }
  if (v.count("fixed-time")) {
    auto t = ParseRfc3339(v["fixed-time"].as<std::string>());
    if (!t.ok()) return ReportFailure("collect", Status::InvalidArgument("--fixed-time", t.status().message()));
    o.fixed_time_ns = *t;
  }
  const char* path = std::getenv("PATH");
  o.path_env = path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  o.tool_version = GPUF_VERSION;
  if (WantsRedaction(v)) {
    o.redact = true;
    o.redaction = RedactOptionsFrom(v);
    // Bad patterns or a bad map must stop the run before the node is touched.
    // The trial run is closed at once: it holds the map's lock.
    Status usable = RedactionRun::Open(o.redaction, o.redaction.map_path).status();
    if (!usable.ok()) return ReportFailure("collect", usable);
    if (!o.redaction.map_path.empty()) {
      Status writable = CheckMapWritable(o.redaction.map_path);
      if (!writable.ok()) return ReportFailure("collect", writable);
    }
  }

  const bool to_stdout = o.output == "-";
  std::string stdout_staging;
  if (to_stdout) {
    if (isatty(STDOUT_FILENO)) {
      return ReportFailure("collect", Status::InvalidArgument("--output - writes a binary bundle; redirect stdout"));
    }
    if (o.redact && o.redaction.map_path.empty()) {
      return ReportFailure("collect", Status::InvalidArgument("--output - with --redact needs --map"));
    }
    auto staging = MakeStdoutStaging();
    if (!staging.ok()) return ReportFailure("collect", staging.status());
    stdout_staging = *staging;
    o.output = stdout_staging + "/bundle.tar.zst";
  }
  auto outcome = [&] {
    // Progress only on a terminal; erased before the triage below.
    CollectProgressReporter progress(isatty(STDERR_FILENO) != 0);
    return Collect(o, InstallInterruptHandlers(), progress.Sink());
  }();
  if (!outcome.ok()) {
    if (to_stdout) std::filesystem::remove_all(stdout_staging);
    return ReportFailure("collect", outcome.status());
  }
  std::fprintf(stderr, "gpuforensics collect: triage for node %s\n%s", outcome->manifest.node_name.c_str(),
               outcome->triage.c_str());
  if (!outcome->manifest.complete) {
    std::fprintf(stderr, "gpuforensics collect: bundle is INCOMPLETE (%s)\n",
                 outcome->manifest.incomplete_reason.c_str());
  }
  if (!outcome->not_stored.empty()) {
    std::fprintf(stderr, "gpuforensics collect: %zu probe outputs could not be written; the bundle lacks them:\n",
                 outcome->not_stored.size());
    for (const auto& line : outcome->not_stored) std::fprintf(stderr, "  %s\n", line.c_str());
  }
  if (geteuid() != 0 && !outcome->refused.empty()) {
    const size_t n = outcome->refused.size();
    std::fprintf(stderr, "gpuforensics collect: WARNING: not run as root; %zu %s refused, %s evidence is not in the "
                         "bundle:\n", n, n == 1 ? "probe was" : "probes were", n == 1 ? "its" : "their");
    for (const auto& line : outcome->refused) std::fprintf(stderr, "  %s\n", line.c_str());
    std::fprintf(stderr, "gpuforensics collect: run it as root, or from a privileged pod (deploy/README.md)\n");
  }
  if (o.redact) {
    std::fprintf(stderr, "gpuforensics collect: redacted; map (keep it private) %s\n",
                 (o.redaction.map_path.empty() ? DefaultMapPath(outcome->bundle_path) : o.redaction.map_path).c_str());
  }
  if (to_stdout) {
    Status copied = CopyToStdout(outcome->bundle_path);
    if (!copied.ok()) {
      // The evidence stays: a broken pipe (a dropped kubectl exec or ssh) must not cost the bundle.
      std::fprintf(stderr, "gpuforensics collect: %s; the bundle is kept at %s\n", copied.message().c_str(),
                   outcome->bundle_path.c_str());
      return ExitCodeFor(copied);
    }
    std::filesystem::remove_all(stdout_staging);
    std::fprintf(stderr, "gpuforensics collect: wrote the bundle to stdout (bundle %s)\n",
                 BundleId(outcome->manifest).c_str());
    return kExitOk;
  }
  std::fprintf(stderr, "gpuforensics collect: wrote %s (bundle %s)\n", outcome->bundle_path.c_str(),
               BundleId(outcome->manifest).c_str());
  std::printf("%s\n", outcome->bundle_path.c_str());
  return outcome->manifest.complete ? kExitOk : kExitIncomplete;
}

}  // namespace gpuf
