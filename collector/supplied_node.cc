#include "collector/supplied_node.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include <nlohmann/json.hpp>

#include "collector/probe_table.h"
#include "collector/secrets.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/json_depth.h"
#include "common/time_format.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;

Status TooLarge(const std::string& source) {
  return Status::InvalidArgument("--node-object " + source + " is larger than " +
                                 FormatByteLimit(kMaxNodeObjectBytes));
}

// stdin to its end. A pipe that stays open past the timeout is given up on:
// collect must not wait on whoever feeds it.
Result<std::string> ReadStdin(int64_t timeout_ms) {
  if (isatty(STDIN_FILENO)) {
    return Status::InvalidArgument("--node-object -: stdin is a terminal; pipe the Node's JSON into it");
  }
  const int64_t deadline_ns = MonotonicNowNs() + timeout_ms * kNsPerMs;
  std::string text;
  char buffer[65536];
  while (true) {
    const int64_t left_ms = (deadline_ns - MonotonicNowNs()) / kNsPerMs;
    if (left_ms <= 0) {
      return Status::InvalidArgument("--node-object -: stdin did not end within " + std::to_string(timeout_ms) + " ms");
    }
    pollfd p{STDIN_FILENO, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left_ms, INT_MAX)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Status::InvalidArgument("--node-object -", std::strerror(errno));
    if (ready == 0) continue;
    ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::InvalidArgument("--node-object -", std::strerror(errno));
    if (n == 0) return text;
    text.append(buffer, static_cast<size_t>(n));
    if (static_cast<int64_t>(text.size()) > kMaxNodeObjectBytes) return TooLarge("-");
  }
}

std::string KindOf(const nlohmann::json& object) {
  auto kind = object.find("kind");
  return kind != object.end() && kind->is_string() ? kind->get<std::string>() : "";
}

// What a List handed by the kubectl plugin holds besides its one Node: the
// EventList read with it (`kubectl get events -o json` of the Node's
// events, marked so by the plugin), the PodList of its pods, the device
// plugin's DaemonSet, the MetricsCapture of its series and the kube-system
// Namespace (the cluster);
// "" for what did not come: events that were not read are unknown, not none.
struct ListParts {
  nlohmann::json node;
  std::string events;
  std::string pods;
  std::string metrics;
  std::string cluster;
  std::string daemonset;
};

Result<ListParts> SplitNodeList(const nlohmann::json& list, const std::string& what) {
  auto items = list.find("items");
  if (items == list.end() || !items->is_array()) return Status::InvalidArgument(what + " is a List without items");
  ListParts parts;
  for (const auto& item : *items) {
    const std::string kind = item.is_object() ? KindOf(item) : "";
    std::string* text = kind == "EventList"        ? &parts.events
                        : kind == "PodList"        ? &parts.pods
                        : kind == "MetricsCapture" ? &parts.metrics
                        : kind == "Namespace"      ? &parts.cluster
                        : kind == "DaemonSet"      ? &parts.daemonset
                                                   : nullptr;
    if (kind == "Node" && parts.node.is_null()) {
      parts.node = item;
    } else if (text && text->empty()) {
      *text = item.dump(4) + "\n";
    } else if (kind == "Node" || text) {
      return Status::InvalidArgument(what + " is a List of more than one " + kind);
    } else {
      const std::string said = kind.empty() ? "an item without a kind" : "a '" + kind + "'";
      return Status::InvalidArgument(
          what + " holds " + said +
          " in its List: only a Node, an EventList, a PodList, a DaemonSet, a MetricsCapture and a Namespace "
          "are taken");
    }
  }
  if (parts.node.is_null()) return Status::InvalidArgument(what + " is a List without a Node");
  return parts;
}

// A supplied object as an artifact of context "cluster", scrubbed as the
// host's own kubectl output of that artifact is.
Result<ProbeResult> SuppliedResult(std::string_view name, std::string text, const std::string& source,
                                   const std::string& staged, int64_t read_at_unix_ns) {
  ProbeResult result;
  ManifestArtifact& a = result.artifact;
  a.name = std::string(name);
  a.kind = std::string(ArtifactKindName(ArtifactKind::kFile));
  a.path = source;
  a.context = "cluster";
  a.phase = kPhasePassive;
  a.started_at_unix_ns = a.ended_at_unix_ns = read_at_unix_ns;
  a.status = ProbeStatus::kOk;
  a.redactions = RedactText(text, RedactionFor(a.name));
  GPUF_RETURN_IF_ERROR(WriteWholeFile(staged, text));
  ManifestOutput out;
  out.stream = std::string(kStreamStdout);
  a.outputs.push_back(out);
  result.staged.push_back({out.stream, staged});
  return result;
}

}  // namespace

Result<SuppliedNode> ParseSuppliedNode(std::string text, std::string source) {
  const std::string what = "--node-object " + source;
  // What is written out again (dump) must not recurse past the stack.
  if (JsonNestingDepth(text) > kMaxJsonDepth) {
    return Status::InvalidArgument(what + " is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Status::InvalidArgument(what + " is not a JSON object");
  ListParts parts;
  if (KindOf(doc) == "List") {
    GPUF_ASSIGN_OR_RETURN(parts, SplitNodeList(doc, what));
    doc = std::move(parts.node);
    text = doc.dump(4) + "\n";
  }
  if (KindOf(doc) != "Node") {
    const std::string said = KindOf(doc).empty() ? "no kind" : "a '" + KindOf(doc) + "'";
    return Status::InvalidArgument(what + " holds " + said + ", not a Node (kubectl get node NAME -o json)");
  }
  const auto& metadata = doc.value("metadata", nlohmann::json::object());
  auto name = metadata.is_object() ? metadata.find("name") : metadata.end();
  if (!metadata.is_object() || name == metadata.end() || !name->is_string() || name->get<std::string>().empty()) {
    return Status::InvalidArgument(what + " is a Node without metadata.name");
  }
  return SuppliedNode{.name = name->get<std::string>(),
                      .json = std::move(text),
                      .source = std::move(source),
                      .events_json = std::move(parts.events),
                      .pods_json = std::move(parts.pods),
                      .metrics_json = std::move(parts.metrics),
                      .cluster_json = std::move(parts.cluster),
                      .daemonset_json = std::move(parts.daemonset),
                      .read_at_unix_ns = WallClockNowNs()};
}

Result<SuppliedNode> ReadSuppliedNode(const std::string& path, int64_t timeout_ms) {
  std::string text;
  if (path == "-") {
    GPUF_ASSIGN_OR_RETURN(text, ReadStdin(timeout_ms));
  } else {
    auto read = ReadWholeFile(path, kMaxNodeObjectBytes + 1);
    if (!read.ok()) return Status::InvalidArgument("--node-object " + path, read.status().message());
    if (static_cast<int64_t>(read->size()) > kMaxNodeObjectBytes) return TooLarge(path);
    text = std::move(*read);
  }
  return ParseSuppliedNode(std::move(text), path);
}

Result<ProbeResult> SuppliedNodeResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sNode, node.json, node.source, staging_dir + "/supplied-node.stdout",
                        node.read_at_unix_ns);
}

Result<ProbeResult> SuppliedEventsResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sEvents, node.events_json, node.source, staging_dir + "/supplied-events.stdout",
                        node.read_at_unix_ns);
}

Result<ProbeResult> SuppliedPodsResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sNodePods, node.pods_json, node.source, staging_dir + "/supplied-pods.stdout",
                        node.read_at_unix_ns);
}

Result<ProbeResult> SuppliedClusterResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sCluster, node.cluster_json, node.source, staging_dir + "/supplied-cluster.stdout",
                        node.read_at_unix_ns);
}

Result<ProbeResult> SuppliedDaemonSetResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sPluginDaemonSet, node.daemonset_json, node.source,
                        staging_dir + "/supplied-daemonset.stdout", node.read_at_unix_ns);
}

Result<ProbeResult> SuppliedMetricsResult(const SuppliedNode& node, const std::string& staging_dir) {
  return SuppliedResult(artifact::kK8sMetrics, node.metrics_json, node.source, staging_dir + "/supplied-metrics.stdout",
                        node.read_at_unix_ns);
}

}  // namespace gpuf
