#include "kube/kubectl_collect.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/help_docs.h"
#include "cli/interrupt.h"
#include "cli/options.h"
#include "collector/subprocess.h"
#include "common/exit_codes.h"
#include "common/terminal_text.h"
#include "common/time_format.h"
#include "kube/collector_pod.h"
#include "kube/metrics_fetch.h"
#include "kube/metrics_query.h"
#include "kube/node_collection.h"
#include "kube/yaml_text.h"

#ifndef GPUF_COLLECTOR_IMAGE
#define GPUF_COLLECTOR_IMAGE "gpuforensics-collect:0.0.0"
#endif

namespace gpuf {

namespace {

constexpr int64_t kNsPerS = 1'000'000'000;
constexpr int64_t kListTimeoutNs = 60 * kNsPerS;
constexpr int64_t kSweepTimeoutNs = 30 * kNsPerS;

struct Request {
  std::vector<std::string> nodes;  // named, "node/" taken off
  std::string selector;
  std::vector<std::string> kubectl_flags;  // --kubeconfig, --context, --namespace, as given
  NodeCollectionPlan plan;
  int jobs = 4;
  std::string dry_run_format;  // "" unless --dry-run: yaml | json
  std::string metrics_service;   // --metrics-service, as given
  DirectMetricsOptions metrics;  // --metrics URL and its token; url "" when not given
};

po::options_description Options() {
  po::options_description options(
      "kubectl gpuforensics collect NODE... [options]\n"
      "kubectl gpuforensics collect --selector SELECTOR [options]\n\n"
      "Collects each node from here, through the cluster's API, with the user's own\n"
      "kubectl and credentials: a short-lived privileged pod on the node (host PID\n"
      "namespace, the host's / read-only at /host), `gpuforensics-collect collect\n"
      "--root /host --exec chroot` run in it with kubectl exec, the bundle streamed\n"
      "back on stdout, verified (sizes and sha256 of every member) and written here\n"
      "as gpuforensics-<node>-<UTC time>.tar.zst; then the pod is deleted. NODE is a\n"
      "node name or node/NAME. A node that is not Ready gets no pod and is reported\n"
      "at once. Ctrl-C stops the run and deletes its pods (label gpuforensics.io/run).\n"
      "Bundle paths go to stdout, one a line; what happened to each node to stderr.\n\noptions");
  options.add_options()
      ("selector,l", po::value<std::string>()->value_name("SELECTOR"), "collect every node with these labels (e.g. nvidia.com/gpu.present=true)")
      ("output-dir,d", po::value<std::string>()->value_name("DIR")->default_value("."), "where the bundles are written")
      ("jobs,j", po::value<int>()->value_name("N")->default_value(4), "nodes collected at once")
      ("deadline", po::value<double>()->value_name("SECONDS")->default_value(300),
       "seconds one node may take, from creating its pod to its verified bundle")
      ("image", po::value<std::string>()->value_name("IMAGE")->default_value(GPUF_COLLECTOR_IMAGE),
       "the collector image (deploy/Containerfile; scripts/release pins it by digest)")
      ("no-driver", "collect without running nvidia-smi (a GPU whose driver hangs)")
      ("dry-run", po::value<std::string>()->value_name("STRATEGY")->implicit_value("client"),
       "print the pods that would run (see --output) and create nothing; only 'client' is accepted")
      ("output,o", po::value<std::string>()->value_name("PATH|FORMAT"),
       "one node's bundle file (a new file; several nodes: --output-dir); with --dry-run, as kubectl's: yaml "
       "(default) | json")
      ("metrics", po::value<std::string>()->value_name("URL"),
       "a Prometheus-compatible query API (Prometheus, VictoriaMetrics, Thanos, Mimir): the node's GPU count, its "
       "plugin's restarts and the alerts naming it over --metrics-window go into the bundle; https unless "
       "--metrics-insecure")
      ("metrics-service", po::value<std::string>()->value_name("NAMESPACE/SERVICE:PORT"),
       "the same through the API server's service proxy, with kubectl's credentials (RBAC: get on services/proxy)")
      ("metrics-window", po::value<std::string>()->value_name("DURATION")->default_value("24h"),
       "how far back before the capture the metrics are read (up to 7d)")
      ("metrics-node-label", po::value<std::string>()->value_name("LABEL")->default_value("node"),
       "the label that names the node in the store (kube-state-metrics writes node)")
      ("metrics-token-file", po::value<std::string>()->value_name("FILE"),
       "a bearer token for --metrics URL, sent there only and written nowhere")
      ("metrics-insecure", "let --metrics URL be plain http")
      ("namespace,n", po::value<std::string>()->value_name("NAMESPACE"), "namespace of the pods (default: the kubeconfig context's)")
      ("context", po::value<std::string>()->value_name("CONTEXT"), "kubeconfig context to use (default: the current one)")
      ("kubeconfig", po::value<std::string>()->value_name("FILE"), "kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)")
      ("node-names", po::value<std::vector<std::string>>()->value_name("NODE..."), "the nodes: a name or node/NAME each");
  return options;
}

std::string RandomRunId() {
  unsigned char bytes[4] = {};
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    (void)!read(fd, bytes, sizeof bytes);
    close(fd);
  }
  char id[9];
  std::snprintf(id, sizeof id, "%02x%02x%02x%02x", bytes[0], bytes[1], bytes[2], bytes[3]);
  return id;
}

Status MetricsRequestFrom(const po::variables_map& v, Request& r) {
  if (v.count("metrics") && v.count("metrics-service")) {
    return Status::InvalidArgument("--metrics and --metrics-service name the same store: give one");
  }
  if (!v.count("metrics") && (v.count("metrics-token-file") || v.count("metrics-insecure"))) {
    return Status::InvalidArgument("--metrics-token-file and --metrics-insecure go with --metrics URL");
  }
  if (v.count("metrics")) r.metrics.url = v["metrics"].as<std::string>();
  if (v.count("metrics-token-file")) r.metrics.token_file = v["metrics-token-file"].as<std::string>();
  r.metrics.insecure = v.count("metrics-insecure") > 0;
  if (v.count("metrics-service")) r.metrics_service = v["metrics-service"].as<std::string>();
  GPUF_ASSIGN_OR_RETURN(r.plan.metrics.window_s, ParseWindowSeconds(v["metrics-window"].as<std::string>()));
  r.plan.metrics.node_label = v["metrics-node-label"].as<std::string>();
  return CheckLabelName(r.plan.metrics.node_label);
}

// The fetcher the metrics options ask for; nullptr when none.
Result<std::unique_ptr<MetricsFetcher>> MetricsFetcherFor(Request& r, const KubectlRunner& kubectl) {
  if (!r.metrics_service.empty()) return ServiceProxyFetcher(&kubectl, r.metrics_service);
  if (r.metrics.url.empty()) return std::unique_ptr<MetricsFetcher>();
  r.metrics.work_dir = kubectl.work_dir();
  return DirectFetcher(r.metrics);
}

Result<Request> RequestFrom(const po::variables_map& v) {
  Request r;
  if (v.count("node-names")) {
    for (std::string name : v["node-names"].as<std::vector<std::string>>()) {
      if (name.rfind("node/", 0) == 0 || name.rfind("nodes/", 0) == 0) name = name.substr(name.find('/') + 1);
      if (name.empty() || name.find('/') != std::string::npos) {
        return Status::InvalidArgument("'" + name + "' is not a node (NAME or node/NAME)");
      }
      r.nodes.push_back(name);
    }
  }
  if (v.count("selector")) r.selector = v["selector"].as<std::string>();
  if (r.nodes.empty() == r.selector.empty()) {
    return Status::InvalidArgument("name the nodes or give --selector, not both nor neither");
  }
  for (const char* flag : {"kubeconfig", "context", "namespace"}) {
    if (v.count(flag)) r.kubectl_flags.push_back(std::string("--") + flag + "=" + v[flag].as<std::string>());
  }
  r.jobs = v["jobs"].as<int>();
  double deadline = v["deadline"].as<double>();
  if (r.jobs < 1 || deadline <= 0) return Status::InvalidArgument("--jobs and --deadline must be positive");
  r.plan.deadline_ms = static_cast<int64_t>(deadline * 1000);
  r.plan.image = v["image"].as<std::string>();
  r.plan.output_dir = v["output-dir"].as<std::string>();
  r.plan.no_driver = v.count("no-driver") > 0;
  r.plan.run_id = RandomRunId();
  GPUF_RETURN_IF_ERROR(MetricsRequestFrom(v, r));
  if (v.count("dry-run")) {
    if (v["dry-run"].as<std::string>() != "client") {
      return Status::InvalidArgument("--dry-run takes 'client' only (nothing is sent to the server)");
    }
    r.dry_run_format = v.count("output") ? v["output"].as<std::string>() : "yaml";
    if (r.dry_run_format != "yaml" && r.dry_run_format != "json") {
      return Status::InvalidArgument("with --dry-run, --output must be yaml or json");
    }
    return r;
  }
  if (v.count("output")) {
    const std::string path = v["output"].as<std::string>();
    if (path == "yaml" || path == "json") {
      return Status::InvalidArgument("-o " + path + " shapes a --dry-run's pods; a bundle's name ends in .tar.zst");
    }
    if (r.nodes.size() != 1) {
      return Status::InvalidArgument("-o names one node's bundle; for several nodes, --output-dir DIR");
    }
    if (!v["output-dir"].defaulted()) {
      return Status::InvalidArgument("-o names the bundle's file, --output-dir a folder for several: give one");
    }
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      return Status::InvalidArgument("-o '" + path + "' exists: a bundle is written to a new file only");
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
      return Status::InvalidArgument("-o '" + path + "': '" + parent.string() + "' is not a directory");
    }
    r.plan.output_path = path;
  }
  return r;
}

// The nodes to collect: each named one asked for by name (a missing one is
// that node's failure), or those the selector matches.
Result<std::vector<NodeTarget>> ResolveNodes(const Request& r, const KubectlRunner& kubectl,
                                             const std::atomic<bool>* interrupt) {
  if (r.selector.empty()) {
    std::vector<NodeTarget> targets;
    for (const auto& name : r.nodes) targets.push_back({name, true, ""});
    return targets;
  }
  auto text = kubectl.Output({"get", "nodes", "--selector", r.selector, "-o", "json"},
                             MonotonicNowNs() + kListTimeoutNs, interrupt);
  if (!text.ok()) return text.status().WithContext("listing nodes");
  GPUF_ASSIGN_OR_RETURN(std::vector<NodeTarget> targets, NodesFromJson(*text));
  if (targets.empty()) return Status::NotFound("no node matches --selector " + r.selector);
  return targets;
}

// A named node is read on its worker, so that a missing one fails alone.
NodeTarget ReadNamedNode(const NodeTarget& named, const KubectlRunner& kubectl, const std::atomic<bool>* interrupt,
                         std::string& problem) {
  auto text = kubectl.Output({"get", "node", named.name, "-o", "json"}, MonotonicNowNs() + kListTimeoutNs, interrupt);
  if (!text.ok()) {
    problem = text.status().message();
    return named;
  }
  auto nodes = NodesFromJson(*text);
  if (!nodes.ok() || nodes->size() != 1) {
    problem = nodes.ok() ? "kubectl printed no single node" : nodes.status().message();
    return named;
  }
  return nodes->front();
}

int PrintDryRun(const Request& r, const std::vector<NodeTarget>& targets) {
  std::vector<nlohmann::json> pods;
  for (const auto& t : targets) {
    pods.push_back(CollectorPod({t.name, r.plan.run_id, r.plan.image, r.plan.deadline_ms / 1000 + 60}));
  }
  if (r.dry_run_format == "json") {
    nlohmann::json out = pods.size() == 1 ? pods.front()
                                          : nlohmann::json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", pods}};
    std::printf("%s\n", out.dump(4).c_str());
    return kExitOk;
  }
  for (size_t i = 0; i < pods.size(); ++i) std::printf("%s%s", i ? "---\n" : "", YamlText(pods[i]).c_str());
  return kExitOk;
}

std::string Size(int64_t bytes) {
  char text[32];
  if (bytes >= (1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / (1 << 10));
  }
  return text;
}

// Runs every node on at most `jobs` threads; reports each as it ends.
std::vector<NodeOutcome> CollectAll(const Request& r, const std::vector<NodeTarget>& targets,
                                    const KubectlRunner& kubectl, const NodeCollectionPlan& plan) {
  std::vector<NodeOutcome> outcomes(targets.size());
  std::mutex mutex;
  size_t next = 0;
  auto worker = [&] {
    while (true) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (next >= targets.size()) return;
        i = next++;
      }
      NodeTarget target = targets[i];
      std::string problem;
      if (r.selector.empty()) target = ReadNamedNode(target, kubectl, plan.interrupt, problem);
      NodeOutcome o;
      if (problem.empty()) {
        o = CollectNode(target, plan);
      } else {
        o.node = target.name;
        o.problem = problem;
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (!o.metrics_problem.empty()) {
        std::fprintf(stderr, "%s: metrics: %s\n", o.node.c_str(), TerminalSafe(o.metrics_problem).c_str());
      }
      if (o.bundle.empty()) {
        std::fprintf(stderr, "%s: FAILED: %s\n", o.node.c_str(), TerminalSafe(o.problem).c_str());
        if (!o.kept.empty()) std::fprintf(stderr, "%s: kept what came back as %s\n", o.node.c_str(), o.kept.c_str());
      } else {
        std::fprintf(stderr, "%s: wrote %s (bundle %s, %s, %d members verified)\n", o.node.c_str(), o.bundle.c_str(),
                     o.bundle_id.c_str(), Size(o.bytes).c_str(), o.members);
        // The collector's own verdict, and what to run next, where the person is.
        if (!o.chain_verdict.empty()) std::fprintf(stderr, "%s: chain: %s\n", o.node.c_str(), o.chain_verdict.c_str());
        std::fprintf(stderr, "%s: next: gpuforensics analyze %s\n", o.node.c_str(), o.bundle.c_str());
        std::printf("%s\n", o.bundle.c_str());
        std::fflush(stdout);
      }
      outcomes[i] = std::move(o);
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < std::min<int>(r.jobs, static_cast<int>(targets.size())); ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return outcomes;
}

// Many nodes: one line each, as `kubectl get` lists them, after the
// interleaved progress: the node, what came of it, and the bundle.
void PrintSummaryTable(const std::vector<NodeOutcome>& outcomes) {
  size_t width = 4;
  for (const auto& o : outcomes) width = std::max(width, o.node.size());
  std::fprintf(stderr, "%-*s  %s\n", static_cast<int>(width), "NODE", "RESULT");
  for (const auto& o : outcomes) {
    std::string result = o.bundle.empty() ? "FAILED: " + TerminalSafe(o.problem) : o.bundle;
    if (!o.bundle.empty() && !o.chain_verdict.empty()) result += " - " + o.chain_verdict;
    std::fprintf(stderr, "%-*s  %s\n", static_cast<int>(width), o.node.c_str(), result.c_str());
  }
}

// Deletes whatever pod of this run is left: one whose create was cut by an
// interrupt, one whose delete failed. Returns false when that failed too.
bool SweepRun(const KubectlRunner& kubectl, const std::string& run_id) {
  auto swept = kubectl.Output({"delete", "pods", "--selector", std::string(kRunLabel) + "=" + run_id,
                               "--ignore-not-found", "--wait=false"},
                              MonotonicNowNs() + kSweepTimeoutNs, nullptr);
  return swept.ok();
}

// The kube-system Namespace, read once for every node: its UID names the
// cluster in fleet summaries. "" without `get` on namespaces.
std::string ReadClusterNamespace(const KubectlRunner& kubectl, const std::atomic<bool>* interrupt) {
  auto text = kubectl.Output({"get", "namespace", "kube-system", "-o", "json"}, MonotonicNowNs() + kListTimeoutNs,
                             interrupt, 1 << 20);
  return text.ok() ? *text : "";
}

Result<std::string> MakeWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/kubectl-gpuforensics-XXXXXX";
  if (!mkdtemp(templ.data())) return Status::IoError("creating a directory in $TMPDIR", std::strerror(errno));
  return templ;
}

int Fail(const Status& status) { return ReportFailure("collect", status); }

int Collect(Request& r, const KubectlRunner& kubectl) {
  const std::atomic<bool>* interrupt = InstallInterruptHandlers();
  r.plan.kubectl = &kubectl;
  r.plan.interrupt = interrupt;
  if (isatty(STDERR_FILENO)) {
    r.plan.progress = [](const std::string& node, const std::string& line) {
      std::fprintf(stderr, "%s: %s\n", node.c_str(), TerminalSafe(line).c_str());  // kubectl relays the API's words
    };
  }
  auto targets = ResolveNodes(r, kubectl, interrupt);
  if (!targets.ok()) {
    // No node matched: the command named nothing. The list itself failed: no node collected.
    int status = Fail(targets.status());
    return targets.status().code() == Status::Code::kNotFound ? status : kExitFindings;
  }
  if (!r.dry_run_format.empty()) return PrintDryRun(r, *targets);
  r.plan.cluster_namespace = ReadClusterNamespace(kubectl, interrupt);
  std::vector<NodeOutcome> outcomes = CollectAll(r, *targets, kubectl, r.plan);
  bool swept = SweepRun(kubectl, r.plan.run_id);
  size_t collected = 0;
  for (const auto& o : outcomes) collected += o.bundle.empty() ? 0 : 1;
  if (outcomes.size() > 1) PrintSummaryTable(outcomes);
  std::fprintf(stderr, "kubectl gpuforensics collect: %zu of %zu nodes collected\n", collected, outcomes.size());
  if (!swept) {
    std::fprintf(stderr, "kubectl gpuforensics collect: could not check that no pod is left; delete them with "
                         "kubectl delete pods --selector %s=%s\n", std::string(kRunLabel).c_str(), r.plan.run_id.c_str());
  }
  return collected == outcomes.size() ? kExitOk : kExitFindings;
}

}  // namespace

int RunKubectlCollect(const std::vector<std::string>& args) {
  po::options_description options = Options();
  po::positional_options_description positional;
  positional.add("node-names", -1);
  auto parsed = ParseOptions("collect", args, options, positional);
  if (!parsed.ok()) return Fail(parsed.status());
  if (parsed->help) {
    std::cout << HelpText(options, positional) << ExamplesHelp(ProgramName(), "collect");
    return kExitOk;
  }
  auto request = RequestFrom(parsed->values);
  if (!request.ok()) return Fail(request.status());
  const char* path = std::getenv("PATH");
  std::string kubectl_path = FindExecutable("kubectl", path ? path : "");
  // A dry run of named nodes asks the cluster nothing.
  bool needs_kubectl = request->dry_run_format.empty() || !request->selector.empty();
  if (kubectl_path.empty() && needs_kubectl) return Fail(Status::InvalidArgument("kubectl is not on PATH"));
  if (request->dry_run_format.empty() && request->plan.output_path.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(request->plan.output_dir, ec)) {
      return Fail(Status::IoError("--output-dir '" + request->plan.output_dir + "' is not a directory"));
    }
  }
  auto work_dir = MakeWorkDir();
  if (!work_dir.ok()) return Fail(work_dir.status());
  KubectlRunner kubectl(kubectl_path, request->kubectl_flags, *work_dir);
  auto fetcher = MetricsFetcherFor(*request, kubectl);
  if (!fetcher.ok()) {
    std::error_code ec;
    std::filesystem::remove_all(*work_dir, ec);
    return Fail(fetcher.status());
  }
  request->plan.metrics.fetcher = fetcher->get();
  int status = Collect(*request, kubectl);
  std::error_code ec;
  std::filesystem::remove_all(*work_dir, ec);
  if (int sig = InterruptSignal()) {
    // Ended as the signal would have ended it, now that the cluster is clean.
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return status;
}

}  // namespace gpuf
