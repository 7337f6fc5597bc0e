// Loaders for what kubectl printed for people (saved by hand and imported):
// events, pod descriptions and `get pods` rows, a Node's text; and the
// metrics store's record the kubectl plugin read.
#include <cmath>
#include <nlohmann/json.hpp>

#include "analyzer/load/member_loaders.h"
#include "common/json_depth.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "formats/kube_events.h"
#include "formats/kube_text.h"
#include "formats/metric_series.h"

namespace gpuf {

namespace {

void InsertEvents(LoadContext& ctx, const MemberInput& in, const std::vector<KubeEvent>& events) {
  for (const auto& e : events) {
    ctx.Run("INSERT INTO k8s_events (artifact_id, line, object, type, reason, age, count, source, last_seen_ns, message) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            in.artifact_id, e.line, e.object, e.type, e.reason, e.age, e.count, e.source, e.last_seen_ns, e.message);
  }
}

void InsertPodStates(LoadContext& ctx, const MemberInput& in, const KubePodText& pods) {
  for (const auto& s : pods.states) {
    std::optional<int64_t> init;
    if (s.init_container) init = *s.init_container ? 1 : 0;
    ctx.Run("INSERT INTO k8s_pod_states (artifact_id, line, pod, namespace, container, init_container, which, state, "
            "reason, exit_code, message, restart_count, ready) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            in.artifact_id, s.line, s.pod, s.namespace_, s.container, init, s.which, s.state, s.reason, s.exit_code,
            s.message, s.restart_count, s.ready);
  }
  InsertEvents(ctx, in, pods.events);
  ctx.WarnAll(in.artifact_id, in.output.member, pods.warnings);
}

}  // namespace

void LoadKubeEvents(LoadContext& ctx, const MemberInput& in) {
  KubeEvents events = ParseKubeEvents(in.bytes);
  InsertEvents(ctx, in, events.events);
  ctx.WarnAll(in.artifact_id, in.output.member, events.warnings);
}

void LoadKubePodText(LoadContext& ctx, const MemberInput& in) { InsertPodStates(ctx, in, ParseKubePodText(in.bytes)); }

void LoadKubePods(LoadContext& ctx, const MemberInput& in) { InsertPodStates(ctx, in, ParseKubeGetPods(in.bytes)); }

void LoadKubeNodeText(LoadContext& ctx, const MemberInput& in) {
  KubeNodeText node = ParseKubeNodeText(in.bytes);
  for (size_t i = 0; i < node.resources.size(); ++i) {
    const NodeResource& r = node.resources[i];
    ctx.Run("INSERT INTO node_resources (artifact_id, field, resource, quantity) VALUES (?,?,?,?)", in.artifact_id,
            r.field, r.resource, r.quantity);
  }
  for (const auto& l : node.labels) {
    ctx.Run("INSERT INTO node_labels (artifact_id, line, key, value) VALUES (?,?,?,?)", in.artifact_id, l.line, l.key,
            l.value);
  }
  ctx.WarnAll(in.artifact_id, in.output.member, node.warnings);
}

void LoadKubeMetrics(LoadContext& ctx, const MemberInput& in) {
  const MetricsCapture capture = ParseMetricsCapture(in.bytes, in.artifact.started_at_unix_ns);
  for (const auto& q : capture.queries) {
    ctx.Run(
        "INSERT INTO metric_queries (artifact_id, name, query, source, node, node_label, start_ns, end_ns, "
        "step_s, clock_offset_ns, error, series) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        in.artifact_id, q.name, q.query, capture.source, capture.node, capture.node_label, capture.start_ns,
        capture.end_ns, capture.step_s, capture.clock_offset_ns, NullIfEmpty(q.error), q.series);
  }
  for (size_t i = 0; i < capture.series.size(); ++i) {
    const MetricSeries& s = capture.series[i];
    for (const MetricSample& sample : s.samples) {
      std::optional<double> value;
      if (!std::isnan(sample.value)) value = sample.value;
      ctx.Run(
          "INSERT INTO metric_samples (artifact_id, query, series, metric, resource, alertname, alertstate, pod, "
          "labels, time_ns, value) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
          in.artifact_id, s.query, static_cast<int64_t>(i + 1), NullIfEmpty(s.metric), NullIfEmpty(s.resource),
          NullIfEmpty(s.alertname), NullIfEmpty(s.alertstate), NullIfEmpty(s.pod), s.labels, sample.time_ns, value);
    }
  }
  ctx.WarnAll(in.artifact_id, in.output.member, capture.warnings);
}

void LoadKubeCluster(LoadContext& ctx, const MemberInput& in) {
  const auto ns = nlohmann::json::parse(in.bytes, nullptr, false);
  const nlohmann::json::json_pointer uid("/metadata/uid"), created("/metadata/creationTimestamp");
  if (JsonNestingDepth(in.bytes) > kMaxJsonDepth || !ns.is_object() || !ns.contains(uid) || !ns.at(uid).is_string()) {
    ctx.WarnAll(in.artifact_id, in.output.member, {{0, "not a Namespace with a uid"}});
    return;
  }
  std::optional<int64_t> created_ns;
  if (ns.contains(created) && ns.at(created).is_string()) {
    auto parsed = ParseRfc3339(ns.at(created).get<std::string>());
    if (parsed.ok()) created_ns = *parsed;
  }
  ctx.Run("INSERT INTO cluster_identity (artifact_id, kube_system_uid, created_ns) VALUES (?,?,?)", in.artifact_id,
          ns.at(uid).get<std::string>(), created_ns);
}

void LoadKubeDaemonSet(LoadContext& ctx, const MemberInput& in) {
  using Json = nlohmann::json;
  const Json ds = JsonNestingDepth(in.bytes) > kMaxJsonDepth ? Json() : Json::parse(in.bytes, nullptr, false);
  const auto text = [&](const char* pointer) -> std::optional<std::string> {
    const Json::json_pointer at(pointer);
    return ds.is_object() && ds.contains(at) && ds.at(at).is_string() ? std::optional(ds.at(at).get<std::string>())
                                                                      : std::nullopt;
  };
  const auto count = [&](const char* pointer) -> std::optional<int64_t> {
    const Json::json_pointer at(pointer);
    return ds.is_object() && ds.contains(at) && ds.at(at).is_number_integer() ? std::optional(ds.at(at).get<int64_t>())
                                                                              : std::nullopt;
  };
  const std::optional<std::string> name = text("/metadata/name");
  if (!name || text("/kind").value_or("") != "DaemonSet") {
    ctx.WarnAll(in.artifact_id, in.output.member, {{0, "not a DaemonSet with a name"}});
    return;
  }
  std::vector<std::string> images;
  const Json::json_pointer containers("/spec/template/spec/containers");
  if (ds.contains(containers) && ds.at(containers).is_array()) {
    for (const auto& c : ds.at(containers)) {
      if (c.is_object() && c.contains("image") && c["image"].is_string())
        images.push_back(c["image"].get<std::string>());
    }
  }
  // numberUnavailable is left out of the status when it is 0.
  std::optional<int64_t> unavailable = count("/status/numberUnavailable");
  if (!unavailable && count("/status/desiredNumberScheduled")) unavailable = 0;
  ctx.Run(
      "INSERT INTO daemonset_rollouts (artifact_id, namespace, name, generation, observed_generation, desired, "
      "updated, available, unavailable, update_strategy, images) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
      in.artifact_id, text("/metadata/namespace"), *name, count("/metadata/generation"),
      count("/status/observedGeneration"), count("/status/desiredNumberScheduled"),
      count("/status/updatedNumberScheduled"), count("/status/numberAvailable"), unavailable,
      text("/spec/updateStrategy/type"), Join(images, ", "));
}

}  // namespace gpuf
