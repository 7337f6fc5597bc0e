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
#include "common/text_lines.h"
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

constexpr SuppliedKind kSuppliedKinds[] = {
    // the Node's events, then its device plugin pods'
    {.kind = "EventList", .named = "an EventList", .artifact = artifact::kK8sEvents},
    // the node's pods
    {.kind = "PodList", .named = "a PodList", .artifact = artifact::kK8sNodePods},
    // the device plugin's
    {.kind = "DaemonSet", .named = "a DaemonSet", .artifact = artifact::kK8sPluginDaemonSet},
    // kube/metrics_capture.h
    {.kind = "MetricsCapture", .named = "a MetricsCapture", .artifact = artifact::kK8sMetrics},
    // kube-system, whose UID names the cluster
    {.kind = "Namespace", .named = "a Namespace", .artifact = artifact::kK8sCluster},
};

const SuppliedKind* FindKind(std::string_view kind) {
  for (const auto& k : kSuppliedKinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

// A List's one Node, and its other items as their artifacts' bytes.
Result<std::pair<nlohmann::json, std::map<std::string, std::string, std::less<>>>> SplitNodeList(
    const nlohmann::json& list, const std::string& what) {
  auto items = list.find("items");
  if (items == list.end() || !items->is_array()) return Status::InvalidArgument(what + " is a List without items");
  nlohmann::json node;
  std::map<std::string, std::string, std::less<>> parts;
  for (const auto& item : *items) {
    const std::string kind = item.is_object() ? KindOf(item) : "";
    const SuppliedKind* supplied = FindKind(kind);
    if (kind == "Node" && node.is_null()) {
      node = item;
    } else if (supplied && !parts.contains(supplied->artifact)) {
      parts.emplace(std::string(supplied->artifact), item.dump(4) + "\n");
    } else if (kind == "Node" || supplied) {
      return Status::InvalidArgument(what + " is a List of more than one " + kind);
    } else {
      const std::string said = kind.empty() ? "an item without a kind" : "a '" + kind + "'";
      std::vector<std::string> taken = {"a Node"};
      for (const auto& k : kSuppliedKinds) taken.emplace_back(k.named);
      return Status::InvalidArgument(what + " holds " + said + " in its List: only " +
                                     Join({taken.begin(), taken.end() - 1}, ", ") + " and " + taken.back() +
                                     " are taken");
    }
  }
  if (node.is_null()) return Status::InvalidArgument(what + " is a List without a Node");
  return std::make_pair(std::move(node), std::move(parts));
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
  std::map<std::string, std::string, std::less<>> parts;
  if (KindOf(doc) == "List") {
    GPUF_ASSIGN_OR_RETURN(std::tie(doc, parts), SplitNodeList(doc, what));
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
                      .parts = std::move(parts),
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

std::span<const SuppliedKind> SuppliedKinds() { return kSuppliedKinds; }

bool SuppliedNode::Carries(std::string_view artifact) const {
  return artifact == artifact::kK8sNode || parts.contains(artifact);
}

std::string_view SuppliedNode::Part(std::string_view artifact) const {
  auto it = parts.find(artifact);
  return it == parts.end() ? std::string_view() : std::string_view(it->second);
}

Result<std::vector<ProbeResult>> SuppliedResults(const SuppliedNode& node, const std::string& staging_dir) {
  std::vector<ProbeResult> results;
  GPUF_ASSIGN_OR_RETURN(ProbeResult result,
                        SuppliedResult(artifact::kK8sNode, node.json, node.source,
                                       staging_dir + "/supplied-k8s.node.stdout", node.read_at_unix_ns));
  results.push_back(std::move(result));
  for (const auto& kind : kSuppliedKinds) {
    if (!node.Carries(kind.artifact)) continue;
    GPUF_ASSIGN_OR_RETURN(result, SuppliedResult(kind.artifact, std::string(node.Part(kind.artifact)), node.source,
                                                 staging_dir + "/supplied-" + std::string(kind.artifact) + ".stdout",
                                                 node.read_at_unix_ns));
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace gpuf
