#include "analyzer/timeline/chain_verdict.h"

#include <cstdlib>

#include "analyzer/query.h"
#include "analyzer/timeline/metric_points.h"
#include "analyzer/timeline/timeline_lines.h"
#include "common/artifacts.h"
#include "common/parse_int.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// Each query returns its columns as columns: one fact per column, read by
// index, never packed into one text.
struct Row {
  std::vector<std::optional<std::string>> columns;
  const std::optional<std::string>& operator[](size_t i) const { return columns[i]; }
};

Result<std::optional<Row>> QueryRow(Database& db, std::string_view sql, int64_t bundle) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.BindNamed(":bundle", bundle);
  std::optional<Row> row;
  if (s.Step()) {
    row.emplace();
    for (int i = 0; i < s.ColumnCount(); ++i) {
      row->columns.push_back(s.ColumnIsNull(i) ? std::nullopt : std::optional<std::string>(s.ColumnText(i)));
    }
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return row;
}

Result<bool> ArtifactOk(Database& db, int64_t bundle, std::string_view name) {
  GPUF_ASSIGN_OR_RETURN(int64_t n, QueryInt(db,
      "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND status = 'ok' AND name = $artifact(" +
          std::string(name) + ")", bundle));
  return n > 0;
}

Status ReadPci(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(bool captured, ArtifactOk(db, bundle, artifact::kPciNvidiaFunctions));
  if (!captured) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(f.pci_gpus, QueryInt(db,
      "SELECT count(*) FROM pci_devices p JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND p.role = 'gpu'", bundle));
  return Status::Ok();
}

Status ReadDriver(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(auto version, QueryText(db,
      "SELECT v.version FROM versions v JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND v.component = 'nvidia-kernel-module'", bundle));
  if (!version) {
    GPUF_ASSIGN_OR_RETURN(auto skipped, QueryText(db,
        "SELECT skip_reason FROM artifacts WHERE bundle_id = :bundle AND name = $artifact(driver.version)", bundle));
    if (skipped && *skipped == "not_found") f.driver = ChainFacts::Driver{false, "", 0};
    return Status::Ok();
  }
  GPUF_ASSIGN_OR_RETURN(int64_t gpus, QueryInt(db,
      "SELECT count(*) FROM driver_gpus d JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle", bundle));
  f.driver = ChainFacts::Driver{true, *version, gpus};
  return Status::Ok();
}

Status ReadDeviceNodes(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(bool listed, ArtifactOk(db, bundle, artifact::kDevNvidiaNodes));
  if (!listed) return Status::Ok();
  GPUF_ASSIGN_OR_RETURN(int64_t gpus, QueryInt(db,
      "SELECT count(*) FROM device_nodes d JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND d.type = 'c' AND d.path GLOB '/dev/nvidia[0-9]*'", bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t ctl, QueryInt(db,
      "SELECT count(*) FROM device_nodes d JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND d.type = 'c' AND d.path = '/dev/nvidiactl'", bundle));
  f.device_nodes = ChainFacts::DeviceNodes{gpus, ctl > 0};
  return Status::Ok();
}

Status ReadHostNvml(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(auto artifact, QueryRow(db,
      "SELECT status, coalesce(skip_reason, '') FROM artifacts "
      "WHERE bundle_id = :bundle AND name = $artifact(host.nvidia_smi_list)", bundle));
  if (!artifact) return Status::Ok();
  ChainFacts::HostNvml nvml;
  nvml.ran = (*artifact)[0] != "skipped";
  nvml.skip_reason = (*artifact)[1].value_or("");
  if (nvml.ran) {
    GPUF_ASSIGN_OR_RETURN(nvml.gpus, QueryInt(db,
        "SELECT count(*) FROM gpus g JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list)", bundle));
    GPUF_ASSIGN_OR_RETURN(nvml.mig_gpus, QueryInt(db,
        "SELECT count(*) FROM gpus g JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list) AND g.mig_devices > 0", bundle));
    GPUF_ASSIGN_OR_RETURN(auto run, QueryRow(db,
        "SELECT r.outcome, coalesce(r.message, '') FROM nvidia_smi_runs r JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list)", bundle));
    nvml.result = run ? (*run)[0].value_or("") : (*artifact)[0].value_or("");
    nvml.message = run ? (*run)[1].value_or("") : "";
  }
  f.host_nvml = nvml;
  return Status::Ok();
}

Status ReadRuntime(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(f.default_runtime, QueryText(db,
      "SELECT c.value FROM config_values c JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND c.key IN ('crictl_info.default_runtime_name', 'containerd.default_runtime_name') "
      "ORDER BY c.key = 'containerd.default_runtime_name' LIMIT 1", bundle));
  GPUF_ASSIGN_OR_RETURN(auto newest, QueryRow(db,
      "SELECT coalesce(state, '?'), substr(id, 1, 13) FROM containers "
      "WHERE bundle_id = :bundle AND is_plugin ORDER BY created_at_ns DESC, attempt DESC LIMIT 1", bundle));
  if (!newest) return Status::Ok();
  f.plugin_container = ChainFacts::PluginContainer{(*newest)[0].value_or("?"), (*newest)[1].value_or("")};
  GPUF_ASSIGN_OR_RETURN(auto view, QueryRow(db,
      "SELECT v.outcome, coalesce(v.detail, ''), count(v.uuid) FROM container_gpu_views v "
      "JOIN containers c ON c.id = v.container_id AND c.bundle_id = :bundle "
      "JOIN artifacts a ON a.artifact_id = v.artifact_id AND a.bundle_id = :bundle "
      "WHERE c.is_plugin GROUP BY v.container_id ORDER BY c.created_at_ns DESC LIMIT 1", bundle));
  if (view) {
    f.container_view = ChainFacts::ContainerView{(*view)[0].value_or(""), (*view)[1].value_or(""),
                                                 std::stoll((*view)[2].value_or("0"))};
  }
  return Status::Ok();
}

Status ReadKubelet(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(auto sock, QueryText(db,
      "SELECT time_ns FROM events WHERE bundle_id = :bundle AND milestone = $milestone(kubelet_sock_created)",
      bundle));
  f.kubelet_sock = sock.has_value();
  GPUF_ASSIGN_OR_RETURN(f.kubelet_starts, QueryInt(db,
      "SELECT count(*) FROM events WHERE bundle_id = :bundle AND milestone = $milestone(kubelet_started) "
      "AND boot_offset = 0", bundle));
  GPUF_ASSIGN_OR_RETURN(auto restarted, QueryText(db,
      "SELECT max(time_ns) FROM events WHERE bundle_id = :bundle AND boot_offset = 0 AND "
      "milestone IN ($milestone(kubelet_started), $milestone(kubelet_sock_created))", bundle));
  if (restarted) f.kubelet_restarted_ns = std::stoll(*restarted);
  return Status::Ok();
}

// The plugin instance that matters is the one running at capture: events of
// the boot at capture since the last plugin start (its container's, or its
// unit's where it runs as a host service).
constexpr char kSinceLastStartOfBoot0[] =
    "boot_offset = 0 AND time_ns >= coalesce("
    "(SELECT max(time_ns) FROM events WHERE bundle_id = :bundle AND boot_offset = 0 "
    " AND milestone IN ($milestone(plugin_container_started), $milestone(plugin_service_started))), 0)";

std::string EventsSinceLastStart() {
  return std::string(" FROM events WHERE bundle_id = :bundle AND ") + kSinceLastStartOfBoot0;
}

Status ReadPlugin(Database& db, int64_t bundle, ChainFacts& f) {
  // Whether the plugin wrote any line since its last start: asked as EXISTS,
  // which stops at the first line, where a count read every later event.
  // Its lines are not stored among the events: they are placed as the timeline places them.
  GPUF_ASSIGN_OR_RETURN(int64_t any, QueryInt(db,
      "SELECT EXISTS (SELECT 1 FROM (" + std::string(kPluginTimelineLines) + ") WHERE " + kSinceLastStartOfBoot0 + ")",
      bundle));
  f.plugin.logged = any != 0;
  GPUF_ASSIGN_OR_RETURN(f.plugin.nvml_failure, QueryText(db,
      "SELECT message" + EventsSinceLastStart() +
          " AND milestone = $milestone(plugin_nvml_init_failed) ORDER BY time_ns", bundle));
  GPUF_ASSIGN_OR_RETURN(f.plugin.healthy_signs, QueryInt(db,
      "SELECT count(*)" + EventsSinceLastStart() +
          " AND milestone IN ($milestone(plugin_serving), $milestone(plugin_registered))", bundle));
  GPUF_ASSIGN_OR_RETURN(auto registered, QueryText(db,
      "SELECT max(time_ns)" + EventsSinceLastStart() + " AND milestone = $milestone(plugin_registered)",
      bundle));
  if (registered) f.plugin.registered_ns = std::stoll(*registered);
  GPUF_ASSIGN_OR_RETURN(auto unit, QueryText(db,
      "SELECT j.event_subject FROM events e JOIN journal_entries j ON j.artifact_id = e.artifact_id "
      "AND j.line = e.line WHERE e.bundle_id = :bundle AND e.boot_offset = 0 "
      "AND e.milestone = $milestone(plugin_service_started) ORDER BY e.time_ns DESC LIMIT 1", bundle));
  f.plugin.host_unit = unit.value_or("");
  return Status::Ok();
}

// Whether a resource whose name passes `resource_test` ("= 'x'", "LIKE 'x%'")
// is allocatable on the Node, not at 0.
Result<bool> SomeAllocatable(Database& db, int64_t bundle, const std::string& resource_test) {
  GPUF_ASSIGN_OR_RETURN(int64_t count, QueryInt(db,
      "SELECT count(*) FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource " + resource_test + " AND r.field = 'allocatable' AND r.quantity <> '0'", bundle));
  return count > 0;
}

// Why the Node is not in the bundle, as its k8s.node probe recorded it.
Status ReadNodeMissing(Database& db, int64_t bundle, ChainFacts& f) {
  struct Probe {
    std::string status, skip_reason, error;
  };
  GPUF_ASSIGN_OR_RETURN(std::vector<Probe> probes, QueryRows(db,
      "SELECT status, coalesce(skip_reason, ''), coalesce(error, '') FROM artifacts "
      "WHERE bundle_id = :bundle AND name = $artifact(k8s.node) ORDER BY artifact_id LIMIT 1", bundle,
      [](Statement& row) { return Probe{row.ColumnText(0), row.ColumnText(1), row.ColumnText(2)}; }));
  GPUF_ASSIGN_OR_RETURN(int64_t not_found, QueryInt(db,
      "SELECT count(*) FROM artifact_lines l JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND a.name = $artifact(k8s.node) AND l.stream = 'stderr' AND l.text LIKE '%(NotFound)%'", bundle));
  if (not_found > 0) {
    f.node_missing = "the API has no Node of that name: a wrong node name, not missing API access";
    return Status::Ok();
  }
  if (probes.empty()) {
    GPUF_ASSIGN_OR_RETURN(int64_t node_texts, QueryInt(db,
        "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND name = $artifact(k8s.node_text)", bundle));
    f.node_missing = node_texts > 0
                         ? "the Node text saved holds only part of it: not both its Capacity and its Allocatable"
                         : "the capture holds no Node object: kubectl get node or describe node was not saved";
    return Status::Ok();
  }
  const Probe& probe = probes.front();
  if (probe.skip_reason == Name(SkipReason::kToolMissing)) {
    f.node_missing = "kubectl was not found where the collector ran";
  } else if (probe.skip_reason == Name(SkipReason::kNotApplicable) && !probe.error.empty()) {
    f.node_missing = probe.error;
  } else if (probe.status != Name(ProbeStatus::kSkipped) && probe.status != Name(ProbeStatus::kOk)) {
    GPUF_ASSIGN_OR_RETURN(auto said, QueryText(db,
        "SELECT l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
        "AND a.name = $artifact(k8s.node) AND l.stream = 'stderr' AND trim(l.text) <> '' ORDER BY l.line LIMIT 1",
        bundle));
    const std::string why = !probe.error.empty() ? probe.error : said.value_or("");
    f.node_missing = "kubectl get node ended " + probe.status + (why.empty() ? "" : ": " + why);
  }
  return Status::Ok();
}

Status ReadNode(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(bool captured, ArtifactOk(db, bundle, artifact::kK8sNode));
  if (!captured) {
    // A saved `kubectl describe node` or `get node -o yaml` tells as much,
    // when the part saved held both the Node's capacity and its allocatable.
    GPUF_ASSIGN_OR_RETURN(int64_t fields, QueryInt(db,
        "SELECT count(DISTINCT r.field) FROM node_resources r JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND a.name = $artifact(k8s.node_text) "
        "AND r.field IN ('capacity', 'allocatable')", bundle));
    captured = fields == 2;
  }
  if (!captured) return ReadNodeMissing(db, bundle, f);
  ChainFacts::Node node;
  GPUF_ASSIGN_OR_RETURN(node.gpu_capacity, QueryText(db,
      "SELECT quantity FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource = 'nvidia.com/gpu' AND r.field = 'capacity'", bundle));
  GPUF_ASSIGN_OR_RETURN(node.gpu_allocatable, QueryText(db,
      "SELECT quantity FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource = 'nvidia.com/gpu' AND r.field = 'allocatable'", bundle));
  GPUF_ASSIGN_OR_RETURN(node.mig_allocatable, SomeAllocatable(db, bundle, "LIKE 'nvidia.com/mig-%'"));
  GPUF_ASSIGN_OR_RETURN(node.shared_allocatable, SomeAllocatable(db, bundle, "= 'nvidia.com/gpu.shared'"));
  f.node = node;
  return Status::Ok();
}

std::optional<int64_t> IntOf(const std::optional<std::string>& text) {
  return text ? ParseInt64(*text) : std::nullopt;
}

std::optional<double> DoubleOf(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text->c_str(), &end);
  return end == text->c_str() + text->size() && !text->empty() ? std::optional<double>(value) : std::nullopt;
}

// The first drop of a GPU resource's allocatable in the window, and when
// it came back to where it was, if it did.
Status ReadFirstDrop(Database& db, int64_t bundle, ChainFacts::Metrics& m) {
  GPUF_ASSIGN_OR_RETURN(auto drop, QueryRow(db, std::string("WITH ") + kAllocatablePoints + R"sql(
SELECT d.resource, d.time_ns, d.value_before, d.value,
       (SELECT min(r.time_ns) FROM allocatable_points r WHERE r.artifact_id = d.artifact_id AND r.series = d.series
        AND r.time_ns > d.time_ns AND r.value >= d.value_before)
FROM allocatable_points d WHERE d.value < d.value_before ORDER BY d.time_ns LIMIT 1)sql", bundle));
  if (!drop) return Status::Ok();
  const Row& d = *drop;
  m.first_drop = ChainFacts::Metrics::Drop{d[0].value_or("?"), IntOf(d[1]).value_or(0), DoubleOf(d[2]).value_or(0),
                                           DoubleOf(d[3]).value_or(0), IntOf(d[4])};
  return Status::Ok();
}

// The first alert naming the node to fire at or after the drop (in the
// window, without one), and when that run ended (nullopt: still firing).
Status ReadFirstAlert(Database& db, int64_t bundle, ChainFacts::Metrics& m) {
  const int64_t since = m.first_drop ? m.first_drop->at_ns : 0;
  GPUF_ASSIGN_OR_RETURN(auto alert, QueryRow(db, std::string("WITH ") + kFiringPoints + R"sql(
SELECT s.alertname, s.time_ns,
       (SELECT e.time_ns + e.step_ns FROM firing_points e WHERE e.run_end AND e.artifact_id = s.artifact_id
        AND e.series = s.series AND e.time_ns >= s.time_ns ORDER BY e.time_ns LIMIT 1)
FROM firing_points s WHERE s.run_start AND s.time_ns >= )sql" + std::to_string(since) +
                                                     " ORDER BY s.time_ns LIMIT 1",
                                                 bundle));
  if (!alert) return Status::Ok();
  m.alert = ChainFacts::Metrics::Alert{(*alert)[0].value_or("?"), IntOf((*alert)[1]).value_or(0), IntOf((*alert)[2])};
  return Status::Ok();
}

Status ReadMetrics(Database& db, int64_t bundle, ChainFacts& f) {
  GPUF_ASSIGN_OR_RETURN(auto capture, QueryRow(db, R"sql(
SELECT q.node_label || '="' || q.node || '"', q.end_ns, q.end_ns - q.start_ns, q.step_s,
       (SELECT error FROM metric_queries e WHERE e.artifact_id = q.artifact_id AND e.name = 'allocatable'),
       (SELECT error FROM metric_queries e WHERE e.artifact_id = q.artifact_id AND e.name = 'alerts'),
       (SELECT count(*) FROM metric_samples s WHERE s.artifact_id = q.artifact_id AND s.query = 'allocatable'),
       (SELECT max(time_ns) FROM metric_samples s WHERE s.artifact_id = q.artifact_id AND s.query = 'allocatable'),
       (SELECT value FROM metric_samples s WHERE s.artifact_id = q.artifact_id AND s.query = 'allocatable'
        AND s.resource = 'nvidia_com_gpu' ORDER BY time_ns DESC LIMIT 1),
       (SELECT max(value) FROM metric_samples s WHERE s.artifact_id = q.artifact_id AND s.query = 'allocatable'
        AND s.resource = 'nvidia_com_gpu')
FROM metric_queries q JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle ORDER BY q.artifact_id DESC LIMIT 1)sql", bundle));
  if (!capture) return Status::Ok();
  const Row& c = *capture;
  ChainFacts::Metrics m;
  m.selector = c[0].value_or("node");
  m.end_ns = IntOf(c[1]).value_or(0);
  m.window_s = IntOf(c[2]).value_or(0) / 1'000'000'000;
  m.step_s = IntOf(c[3]).value_or(30);
  m.allocatable_error = c[4].value_or("");
  m.alerts_error = c[5].value_or("");
  m.allocatable_series = IntOf(c[6]).value_or(0) > 0;
  m.last_sample_ns = IntOf(c[7]);
  m.gpu_last = DoubleOf(c[8]);
  m.gpu_max = DoubleOf(c[9]);
  GPUF_RETURN_IF_ERROR(ReadFirstDrop(db, bundle, m));
  GPUF_RETURN_IF_ERROR(ReadFirstAlert(db, bundle, m));
  f.metrics = std::move(m);
  return Status::Ok();
}

}  // namespace

Result<ChainFacts> ReadChainFacts(Database& db, int64_t bundle) {
  ChainFacts f;
  for (auto read : {ReadPci, ReadDriver, ReadDeviceNodes, ReadHostNvml, ReadRuntime, ReadKubelet, ReadPlugin,
                    ReadNode, ReadMetrics}) {
    GPUF_RETURN_IF_ERROR(read(db, bundle, f));
  }
  return f;
}

Result<std::vector<ChainStep>> ComputeChainVerdict(Database& db, int64_t bundle) {
  GPUF_ASSIGN_OR_RETURN(ChainFacts facts, ReadChainFacts(db, bundle));
  return JudgeChain(facts);
}

}  // namespace gpuf
