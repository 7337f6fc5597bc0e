#include "kube/node_collection.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "collector/supplied_node.h"
#include "common/bundle_layout.h"
#include "common/bundle_verify.h"
#include "common/file_io.h"
#include "common/output_file.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "kube/collector_pod.h"
#include "kube/metrics_capture.h"
#include "kube/plugin_pods.h"
#include "kube/triage_verdict.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kDeleteTimeoutNs = 30'000'000'000;
constexpr int64_t kBundleCapBytes = 16LL << 30;
constexpr int64_t kStreamMarginMs = 20000;  // collect ends this long before the node's deadline

bool Interrupted(const NodeCollectionPlan& plan) { return plan.interrupt && plan.interrupt->load(); }

void Tell(const NodeCollectionPlan& plan, const std::string& node, const std::string& line) {
  if (plan.progress) plan.progress(node, line);
}

// Sleeps up to `ms`, waking early on an interrupt.
void Pause(const NodeCollectionPlan& plan, int64_t ms) {
  for (int64_t slept = 0; slept < ms && !Interrupted(plan); slept += 50) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Status CreatePod(const std::string& pod_name, const NodeTarget& node, const NodeCollectionPlan& plan,
                 int64_t deadline_ns) {
  CollectorPodSpec spec{node.name, plan.run_id, plan.image, plan.deadline_ms / 1000 + 60};
  const std::string manifest = plan.kubectl->work_dir() + "/" + pod_name + ".json";
  GPUF_RETURN_IF_ERROR(WriteWholeFile(manifest, CollectorPod(spec).dump(2) + "\n"));
  // The manifest is ours and tested; --validate=false spares the API
  // server's OpenAPI download, which older kubectl needs for validation.
  auto created = plan.kubectl->Output({"create", "-f", manifest, "--validate=false", "-o", "name"}, deadline_ns,
                                      plan.interrupt);
  std::remove(manifest.c_str());
  if (!created.ok()) return created.status().WithContext("creating pod " + pod_name);
  return Status::Ok();
}

Status WaitUntilRunning(const std::string& pod_name, const NodeCollectionPlan& plan, int64_t deadline_ns) {
  int64_t pause_ms = 250;
  while (true) {
    auto text = plan.kubectl->Output({"get", "pod", pod_name, "-o", "json"}, deadline_ns, plan.interrupt);
    if (!text.ok()) return text.status().WithContext("waiting for pod " + pod_name);
    GPUF_ASSIGN_OR_RETURN(PodState state, PodStateFromJson(*text));
    if (state.progress == PodProgress::kRunning) return Status::Ok();
    if (state.progress == PodProgress::kFailed) return Status::IoError("pod " + pod_name + " cannot run", state.reason);
    if (MonotonicNowNs() + pause_ms * kNsPerMs >= deadline_ns) {
      return Status::IoError("pod " + pod_name + " did not start before the deadline");
    }
    Pause(plan, pause_ms);
    if (Interrupted(plan)) return Status::IoError("interrupted");
    pause_ms = std::min<int64_t>(pause_ms * 2, 2000);
  }
}

// collect's own complaint, without kubectl's "command terminated with exit code N".
std::string CollectComplaint(const std::string& err) {
  std::string kept;
  size_t start = 0;
  while (start < err.size()) {
    size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    std::string line = err.substr(start, end - start);
    if (line.rfind("gpuforensics", 0) == 0 || line.rfind("command terminated", 0) == 0) kept = line;
    if (line.rfind("gpuforensics", 0) == 0) break;
    start = end + 1;
  }
  return kept.empty() ? LastLine(err) : kept;
}

void DeletePod(const std::string& pod_name, const NodeCollectionPlan& plan) {
  // No interrupt: this is what an interrupt must still do.
  auto deleted = plan.kubectl->Output({"delete", "pod", pod_name, "--ignore-not-found", "--wait=false"},
                                      MonotonicNowNs() + kDeleteTimeoutNs, nullptr);
  (void)deleted;  // what is left, the run's final sweep by label deletes
}

// The Events about the Node (the kubelet's Starting, Rebooted, NodeReady;
// the node controller's NodeNotReady), as far as the API server's event TTL
// keeps them; a cluster-scoped object's events are in `default`. "" when
// they could not be read (no `list` on events there).
std::string ReadNodeEvents(const NodeTarget& node, const NodeCollectionPlan& plan, int64_t deadline_ns) {
  auto text = plan.kubectl->Output({"get", "events", "-n", "default", "--field-selector",
                                    "involvedObject.kind=Node,involvedObject.name=" + node.name, "-o", "json"},
                                   deadline_ns, plan.interrupt, kMaxNodeObjectBytes / 2);
  if (!text.ok()) {
    Tell(plan, node.name,
         "Node's events not read (" + text.status().message() + "); collect asks the node's own kubectl");
    return "";
  }
  return *text;
}

// The node's pods, as kubectl prints them (a List); "" when they could not
// be read (no `list` on pods across namespaces).
std::string ReadNodePods(const NodeTarget& node, const NodeCollectionPlan& plan, int64_t deadline_ns) {
  auto text =
      plan.kubectl->Output({"get", "pods", "-A", "--field-selector", "spec.nodeName=" + node.name, "-o", "json"},
                           deadline_ns, plan.interrupt, kMaxNodeObjectBytes / 4);
  if (!text.ok()) {
    Tell(plan, node.name, "pods on the node not read (" + text.status().message() + ")");
    return "";
  }
  return *text;
}

// One object's events in its namespace, added to `events`; false when
// they could not be listed.
bool AddObjectEvents(const NodeTarget& node, const std::string& ns, const std::string& kind, const std::string& name,
                     const NodeCollectionPlan& plan, int64_t deadline_ns, nlohmann::json& events) {
  auto text = plan.kubectl->Output({"get", "events", "-n", ns, "--field-selector",
                                    "involvedObject.kind=" + kind + ",involvedObject.name=" + name, "-o", "json"},
                                   deadline_ns, plan.interrupt, kMaxNodeObjectBytes / 8);
  if (!text.ok()) {
    Tell(plan, node.name, "events of " + kind + " " + ns + "/" + name + " not read (" + text.status().message() + ")");
    return false;
  }
  AppendEvents(events, nlohmann::json::parse(*text, nullptr, false));
  return true;
}

// The device plugin pods' own events (BackOff, Killing, Unhealthy) and
// their DaemonSet's (FailedCreate, SuccessfulDelete), added to the Node's,
// as far as their namespace's events can be listed.
void AddPluginPodEvents(const NodeTarget& node, const nlohmann::json& pods, const NodeCollectionPlan& plan,
                        int64_t deadline_ns, nlohmann::json& events) {
  for (const PodRef& pod : DevicePluginPods(pods)) {
    if (!AddObjectEvents(node, pod.namespace_, "Pod", pod.name, plan, deadline_ns, events)) continue;
    if (pod.daemonset.empty()) continue;
    AddObjectEvents(node, pod.namespace_, "DaemonSet", pod.daemonset, plan, deadline_ns, events);
  }
}

// The DaemonSet of the node's device plugin, as the API serves it (its
// rollout: generation, updated and unavailable pods); null when the
// plugin is no DaemonSet's pod or the DaemonSet could not be read.
nlohmann::json ReadPluginDaemonSet(const NodeTarget& node, const nlohmann::json& pods, const NodeCollectionPlan& plan,
                                   int64_t deadline_ns) {
  for (const PodRef& pod : DevicePluginPods(pods)) {
    if (pod.daemonset.empty()) continue;
    auto text = plan.kubectl->Output({"get", "daemonset", "-n", pod.namespace_, pod.daemonset, "-o", "json"},
                                     deadline_ns, plan.interrupt, kMaxNodeObjectBytes / 16);
    if (!text.ok()) {
      Tell(plan, node.name,
           "DaemonSet " + pod.namespace_ + "/" + pod.daemonset + " not read (" + text.status().message() + ")");
      return nullptr;
    }
    auto daemonset = nlohmann::json::parse(*text, nullptr, false);
    return daemonset.is_object() ? daemonset : nullptr;
  }
  return nullptr;
}

// The node's series in the metrics store, when asked for; null when not.
nlohmann::json ReadNodeMetrics(const NodeTarget& node, const NodeCollectionPlan& plan, int64_t deadline_ns,
                               NodeOutcome& outcome) {
  if (!plan.metrics.fetcher) return nullptr;
  Tell(plan, node.name, "reading metrics from " + plan.metrics.fetcher->Source());
  MetricsOutcome metrics = CaptureMetrics(plan.metrics, node.name, deadline_ns, plan.interrupt);
  outcome.metrics_problem = metrics.problem;
  return std::move(metrics.document);
}

// What collect reads on stdin: the Node alone, as read, or in one v1 List
// with what else was read of it: the EventList of its events (and its
// device plugin pods'), the PodList of its pods, the device plugin's
// DaemonSet, the MetricsCapture and the kube-system Namespace. kubectl
// prints lists as a List; each is marked with the kind collect takes it
// as. Parts that would make the List larger than collect reads are left
// out, the pods first, then the events, then the metrics, and named in
// `left_out`.
struct NodeParts {
  nlohmann::json events;     // null: not read
  nlohmann::json pods;       // null: not read
  nlohmann::json daemonset;  // the device plugin's; null: none, or not read
  nlohmann::json metrics;    // null: not asked for
  nlohmann::json cluster;    // the kube-system Namespace; null: not read
};

std::string NodeList(const std::string& node_text, NodeParts parts, std::vector<std::string>& left_out) {
  const auto object = nlohmann::json::parse(node_text, nullptr, false);
  if (object.is_discarded()) return node_text;
  if (!parts.metrics.is_null()) parts.metrics["handed_unix_ms"] = WallClockNowNs() / kNsPerMs;
  const std::pair<const char*, nlohmann::json*> drops[] = {
      {"", nullptr}, {"pods", &parts.pods}, {"events", &parts.events}, {"metrics", &parts.metrics}};
  for (const auto& [name, part] : drops) {
    if (part && !part->is_null()) {
      *part = nullptr;
      left_out.push_back(name);
    }
    nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", {object}}};
    for (const nlohmann::json* item : {&parts.events, &parts.pods, &parts.daemonset, &parts.metrics, &parts.cluster}) {
      if (!item->is_null()) list["items"].push_back(*item);
    }
    if (list["items"].size() == 1) return node_text;
    // A server's error text may hold bytes that are not UTF-8; they are kept as U+FFFD.
    std::string text = list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (static_cast<int64_t>(text.size()) <= kMaxNodeObjectBytes) return text;
  }
  return node_text;
}

// A list kubectl printed, marked as `kind`; null when it is not one.
nlohmann::json MarkedList(const std::string& text, const char* kind) {
  auto list = nlohmann::json::parse(text, nullptr, false);
  if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) return nullptr;
  list["kind"] = kind;
  return list;
}

// The Node as the API serves it now, with its Events, its pods and its
// metrics, for collect to store (--node-object): the pod has no API access
// of its own, and GKE's, Bottlerocket's and RHCOS' hosts no kubectl. Its
// path, or "" when the Node could not be read; collect then asks the
// host's kubectl, if any.
std::string ReadNodeObject(const NodeTarget& node, const std::string& pod_name, const NodeCollectionPlan& plan,
                           int64_t deadline_ns, NodeOutcome& outcome) {
  auto node_text = plan.kubectl->Output({"get", "node", node.name, "-o", "json"}, deadline_ns, plan.interrupt,
                                        kMaxNodeObjectBytes / 2);
  if (!node_text.ok()) {
    Tell(plan, node.name,
         "Node object not read (" + node_text.status().message() + "); collect asks the node's own kubectl");
    if (plan.metrics.fetcher) {
      outcome.metrics_problem = "not read: they go to collect with the Node, which was not read";
    }
    return "";
  }
  NodeParts parts;
  parts.events = MarkedList(ReadNodeEvents(node, plan, deadline_ns), "EventList");
  parts.pods = MarkedList(ReadNodePods(node, plan, deadline_ns), "PodList");
  if (!parts.events.is_null()) AddPluginPodEvents(node, parts.pods, plan, deadline_ns, parts.events);
  parts.daemonset = ReadPluginDaemonSet(node, parts.pods, plan, deadline_ns);
  parts.metrics = ReadNodeMetrics(node, plan, deadline_ns, outcome);
  parts.cluster = nlohmann::json::parse(plan.cluster_namespace, nullptr, false);
  if (!parts.cluster.is_object() || !parts.cluster.contains("kind") || parts.cluster["kind"] != "Namespace") {
    parts.cluster = nullptr;
  }
  const std::string path = plan.kubectl->work_dir() + "/" + pod_name + ".node.json";
  std::vector<std::string> left_out;
  const std::string list = NodeList(*node_text, std::move(parts), left_out);
  if (!left_out.empty()) {
    Tell(plan, node.name, "left out, the Node's " + Join(left_out, ", ") + ": over " +
                              std::to_string(kMaxNodeObjectBytes >> 20) + " MiB with it");
  }
  if (std::find(left_out.begin(), left_out.end(), "metrics") != left_out.end()) {
    outcome.metrics_problem = "left out: with the Node, over what collect reads (" +
                              std::to_string(kMaxNodeObjectBytes >> 20) + " MiB)";
  }
  if (!WriteWholeFile(path, list).ok()) return "";
  return path;
}

// Steps 2 to 5; `outcome` gets the bundle or the problem.
void CollectWithPod(const NodeTarget& node, const std::string& pod_name, const NodeCollectionPlan& plan,
                    int64_t deadline_ns, NodeOutcome& outcome) {
  Tell(plan, node.name, "starting pod " + pod_name);
  Status status = CreatePod(pod_name, node, plan, deadline_ns);
  if (status.ok()) status = WaitUntilRunning(pod_name, plan, deadline_ns);
  if (!status.ok()) {
    outcome.problem = status.message();
    return;
  }
  const int64_t now_ns = WallClockNowNs();
  const std::string final_path =
      !plan.output_path.empty()
          ? plan.output_path
          : (std::filesystem::path(plan.output_dir) / DefaultBundleFileName(node.name, now_ns)).string();
  const std::string partial = final_path + ".partial";
  const std::string node_object = ReadNodeObject(node, pod_name, plan, deadline_ns, outcome);
  // What is left once the Node was read: collect must end before the stream is cut.
  const int64_t remaining_ms = (deadline_ns - MonotonicNowNs()) / kNsPerMs;
  Tell(plan, node.name, "collecting");
  std::vector<std::string> args = {"exec"};
  if (!node_object.empty()) args.push_back("-i");
  args.insert(args.end(), {pod_name, "-c", std::string(kCollectorContainer), "--"});
  for (auto& word : CollectCommand(CollectDeadlineSeconds(remaining_ms), plan.no_driver, !node_object.empty())) {
    args.push_back(word);
  }
  status = plan.kubectl->ToFile(args, partial, kBundleCapBytes, deadline_ns, plan.interrupt, outcome.collect_err,
                                node_object);
  if (!node_object.empty()) std::remove(node_object.c_str());
  if (!status.ok()) {
    std::remove(partial.c_str());
    outcome.problem = status.message() == "deadline passed" || status.message() == "interrupted"
                          ? status.message() + " while collecting"
                          : "collect failed in pod " + pod_name + ": " + CollectComplaint(outcome.collect_err);
    return;
  }
  auto checked = VerifyBundle(partial);
  if (!checked.ok() || !checked->issues.empty()) {
    outcome.kept = partial;
    outcome.problem = "the bundle did not verify: " +
                      (checked.ok() ? checked->issues.front().member + ": " + checked->issues.front().problem
                                    : checked.status().message());
    return;
  }
  // -o was checked before the pod started; whatever took the name since is not replaced.
  if (Status moved = MoveNoReplace(partial, final_path); !moved.ok()) {
    outcome.kept = partial;
    outcome.problem = moved.message();
    return;
  }
  std::error_code ec;
  outcome.bundle = final_path;
  outcome.chain_verdict = TriageVerdict(outcome.collect_err);
  outcome.bytes = static_cast<int64_t>(std::filesystem::file_size(final_path, ec));
  outcome.members = checked->verified;
  outcome.bundle_id = checked->id;
}

}  // namespace

int64_t CollectDeadlineSeconds(int64_t remaining_ms) {
  return std::clamp<int64_t>((remaining_ms - kStreamMarginMs) / 1000, 5, 120);
}

NodeOutcome CollectNode(const NodeTarget& node, const NodeCollectionPlan& plan) {
  NodeOutcome outcome;
  outcome.node = node.name;
  if (!node.ready) {
    outcome.problem = "node is not Ready (" + node.not_ready + "); no pod started";
    return outcome;
  }
  if (Interrupted(plan)) {
    outcome.problem = "interrupted";
    return outcome;
  }
  const std::string pod_name = CollectorPodName(node.name, plan.run_id);
  CollectWithPod(node, pod_name, plan, MonotonicNowNs() + plan.deadline_ms * kNsPerMs, outcome);
  DeletePod(pod_name, plan);
  return outcome;
}

}  // namespace gpuf
