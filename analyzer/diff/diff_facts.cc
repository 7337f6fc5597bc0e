#include "analyzer/diff/diff_facts.h"

#include "analyzer/query.h"
#include "analyzer/report/node_zone.h"
#include "analyzer/timeline/chain_verdict.h"

namespace gpuf {

namespace {

// The device-plugin container that matters is the newest one: the one
// running (or last run) at capture.
#define NEWEST_PLUGIN \
  "(SELECT id FROM containers WHERE bundle_id = :bundle AND is_plugin ORDER BY created_at_ns DESC LIMIT 1)"

#define ARTIFACT_OK(name) \
  "EXISTS (SELECT 1 FROM artifacts WHERE bundle_id = :bundle AND name = $artifact(" name ") AND status = 'ok')"

constexpr DiffFactQuery kFactQueries[] = {
    // --- versions ---
    {"versions", FactKind::kText, R"sql(
      SELECT 'os', regexp_capture(l.text, '^PRETTY_NAME="?([^"]*)') FROM artifact_lines l JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND a.name = $artifact(host.os_release) AND l.text LIKE 'PRETTY_NAME=%')sql"},
    {"versions", FactKind::kText, R"sql(
      SELECT 'kernel', trim(l.text) FROM artifact_lines l JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND a.name = $artifact(kernel.osrelease) AND l.line = 1)sql"},
    {"versions", FactKind::kText, R"sql(
      SELECT v.component, group_concat(DISTINCT v.version) FROM versions v JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle GROUP BY v.component ORDER BY v.component)sql"},
    // The plugin's version is its image tag (vendor builds add a suffix).
    {"versions", FactKind::kText, R"sql(
      SELECT 'nvidia-device-plugin (image tag)', group_concat(DISTINCT tag) FROM (
        SELECT regexp_capture(l.text, 'device-plugin[^"\s:@]*:(v?[0-9]+\.[0-9]+\.[0-9]+[^"\s,]*)') AS tag
        FROM artifact_lines l JOIN artifacts a USING (artifact_id)
        WHERE a.bundle_id = :bundle AND a.name IN ($artifact(plugin.inspect), $artifact(config.static_pod))
          AND (a.container_id IS NULL OR a.container_id = )sql" NEWEST_PLUGIN R"sql())
      WHERE tag IS NOT NULL)sql"},

    // --- how the plugin is deployed ---
    // kubelet writes kubernetes.io/config.source on every sandbox: 'file' for
    // a static pod, 'api' for a pod from the API server; the DaemonSet
    // controller adds the pod-template-generation label.
    {"plugin", FactKind::kText, R"sql(
      WITH doc AS (
        SELECT group_concat(text, char(10)) AS j FROM (
          SELECT l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id)
          WHERE a.artifact_id = (SELECT min(artifact_id) FROM artifacts
                                 WHERE bundle_id = :bundle AND name = $artifact(runtime.crictl_pods) AND status = 'ok')
          ORDER BY l.line)),
      pods AS (
        SELECT json_extract(p.value, '$.metadata.uid') AS uid,
               json_extract(p.value, '$.annotations."kubernetes.io/config.source"') AS source,
               json_extract(p.value, '$.labels."pod-template-generation"') AS generation
        FROM doc, json_each(doc.j, '$.items') p WHERE json_valid(doc.j)),
      kind AS (
        SELECT CASE WHEN p.source = 'file' THEN 'static pod'
                    WHEN p.source = 'api' AND p.generation IS NOT NULL THEN 'DaemonSet'
                    WHEN p.source = 'api' THEN 'pod from the API server'
               END AS value
        FROM containers c JOIN pods p ON p.uid = c.pod_uid
        WHERE c.bundle_id = :bundle AND c.id = )sql" NEWEST_PLUGIN R"sql( LIMIT 1)
      SELECT 'deployment', coalesce((SELECT value FROM kind),
          (SELECT 'static pod (manifest found)' FROM plugin_config pc JOIN artifacts a USING (artifact_id)
           WHERE a.bundle_id = :bundle AND pc.source = 'static_pod' LIMIT 1)))sql"},
    {"plugin", FactKind::kText, R"sql(
      SELECT 'image', coalesce(
          (SELECT regexp_capture(l.text, '"io\.kubernetes\.cri\.image-name":\s*"([^"]+)"')
           FROM artifact_lines l JOIN artifacts a USING (artifact_id)
           WHERE a.bundle_id = :bundle AND a.name = $artifact(plugin.inspect) AND a.container_id = )sql" NEWEST_PLUGIN R"sql(
             AND l.text LIKE '%io.kubernetes.cri.image-name%' LIMIT 1),
          (SELECT regexp_capture(l.text, 'image:\s*"?([^"\s]+)') FROM artifact_lines l JOIN artifacts a USING (artifact_id)
           WHERE a.bundle_id = :bundle AND a.name = $artifact(config.static_pod) AND l.text LIKE '%image:%device-plugin%'
           LIMIT 1)))sql"},
    {"plugin", FactKind::kText, R"sql(
      SELECT 'container state', state FROM containers WHERE bundle_id = :bundle AND id = )sql" NEWEST_PLUGIN},
    {"plugin", FactKind::kCount, R"sql(
      SELECT 'container restart attempt', attempt FROM containers WHERE bundle_id = :bundle AND id = )sql" NEWEST_PLUGIN},
    {"plugin", FactKind::kCount, R"sql(
      SELECT 'containers listed', count(*) FROM containers WHERE bundle_id = :bundle AND is_plugin)sql"},

    // --- the plugin's settings: its own dump first, then args, env, manifest ---
    {"plugin_config", FactKind::kText, R"sql(
      SELECT key, value FROM (
        SELECT pc.key, pc.value, row_number() OVER (PARTITION BY pc.key ORDER BY
                 CASE pc.source WHEN 'config_dump' THEN 0 WHEN 'args' THEN 1 WHEN 'env' THEN 2 ELSE 3 END) AS n
        FROM plugin_config pc JOIN artifacts a USING (artifact_id)
        WHERE a.bundle_id = :bundle AND (pc.container_id IS NULL OR pc.container_id = )sql" NEWEST_PLUGIN R"sql()
      ) WHERE n = 1 ORDER BY key)sql"},
    {"runtime_config", FactKind::kText, R"sql(
      SELECT c.key, group_concat(DISTINCT c.value) FROM config_values c JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle GROUP BY c.key ORDER BY c.key)sql"},

    // --- the boot at capture: the last of each interval ---
    {"intervals", FactKind::kSeconds, R"sql(
      SELECT name, printf('%.3f', seconds), max(to_event_id) FROM intervals
      WHERE bundle_id = :bundle AND boot_offset = 0 GROUP BY name
      ORDER BY coalesce(nullif(instr(
          'plugin_start_after_persistenced plugin_start_after_driver_loaded plugin_start_after_fabricmanager ' ||
          'plugin_start_after_kubelet registration_after_plugin_start plugin_start_after_boot ' ||
          'last_daemon_reload_after_plugin_start last_kubelet_start_after_plugin_registered', name), 0), 1000), name)sql"},

    // --- how many GPUs each step of the chain sees ---
    {"gpu_counts", FactKind::kCount, R"sql(
      SELECT 'PCI GPU functions (sysfs)', (SELECT count(*) FROM pci_devices p JOIN artifacts a USING (artifact_id)
                                          WHERE a.bundle_id = :bundle AND p.role = 'gpu')
      WHERE )sql" ARTIFACT_OK("pci.nvidia_functions") R"sql(
      UNION ALL
      SELECT '/proc/driver/nvidia/gpus', (SELECT count(*) FROM driver_gpus d JOIN artifacts a USING (artifact_id)
                                          WHERE a.bundle_id = :bundle)
      WHERE )sql" ARTIFACT_OK("driver.version") R"sql(
      UNION ALL
      SELECT '/dev/nvidiaN nodes', (SELECT count(*) FROM device_nodes d JOIN artifacts a USING (artifact_id)
                                    WHERE a.bundle_id = :bundle AND d.type = 'c' AND d.path GLOB '/dev/nvidia[0-9]*')
      WHERE )sql" ARTIFACT_OK("dev.nvidia_nodes") R"sql(
      UNION ALL
      SELECT 'nvidia-smi -L on the host', (SELECT count(*) FROM gpus g JOIN artifacts a USING (artifact_id)
                                           WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list))
      WHERE EXISTS (SELECT 1 FROM artifacts WHERE bundle_id = :bundle AND name = $artifact(host.nvidia_smi_list)
                    AND status <> 'skipped')
      UNION ALL
      SELECT 'nvidia-smi -L in the plugin container', count(v.uuid) FROM container_gpu_views v
      JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND v.container_id = )sql" NEWEST_PLUGIN R"sql( HAVING count(*) > 0
      UNION ALL
      SELECT 'kubelet checkpoint: registered', c.value FROM config_values c JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND c.key = 'checkpoint.registered.nvidia.com/gpu'
      UNION ALL
      SELECT 'Node ' || r.field, r.quantity FROM node_resources r JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND r.resource = 'nvidia.com/gpu')sql"},

    // --- /var/lib/kubelet/device-plugins: which sockets exist, since when ---
    {"sockets", FactKind::kTime, R"sql(
      SELECT s.name, max(s.mtime_ns) FROM plugin_sockets s JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle GROUP BY s.name ORDER BY s.name)sql"},

    // A finding of an earlier boot or a healed fault says so: it is not the fault at capture.
    {"findings", FactKind::kText, R"sql(
      SELECT rule_id, group_concat(DISTINCT CASE tense WHEN 'history' THEN 'history, ' ELSE '' END
                                            || severity || ', ' || confidence) FROM findings
      WHERE bundle_id = :bundle GROUP BY rule_id ORDER BY rule_id)sql"},
};

#undef NEWEST_PLUGIN
#undef ARTIFACT_OK

// Bundle text reaches a terminal: a control character (an escape sequence
// in a hostile bundle) is shown as '?'.
std::string Printable(std::string text) {
  for (char& ch : text) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  }
  return text;
}

Status ReadFacts(Database& db, int64_t bundle, const DiffFactQuery& q, std::vector<DiffFact>& out) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(q.sql));
  s.BindNamed(":bundle", bundle);
  while (s.Step()) {
    if (s.ColumnIsNull(0) || s.ColumnIsNull(1)) continue;
    out.push_back({q.section, Printable(s.ColumnText(0)), q.kind, Printable(s.ColumnText(1))});
  }
  return s.status().WithContext(std::string("diff fact query of section '") + q.section + "'");
}

Status ReadIdentity(Database& db, int64_t bundle, BundleSnapshot& snap) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT coalesce(node_name, ''), coalesce(machine_id, ''), coalesce(boot_id, ''), collected_at_ns "
      "FROM bundles WHERE bundle_id = :bundle"));
  s.BindNamed(":bundle", bundle);
  if (s.Step()) {
    snap.node_name = Printable(s.ColumnText(0));
    snap.machine_id = Printable(s.ColumnText(1));
    snap.boot_id = Printable(s.ColumnText(2));
    snap.collected_at_ns = s.ColumnInt(3);
  }
  return s.status();
}

Status ReadPluginContainers(Database& db, int64_t bundle, BundleSnapshot& snap) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT id, coalesce(state, ''), attempt, created_at_ns, coalesce(pod_uid, '') FROM containers "
      "WHERE bundle_id = :bundle AND is_plugin ORDER BY created_at_ns DESC, id"));
  s.BindNamed(":bundle", bundle);
  while (s.Step()) {
    SeenPluginContainer c{Printable(s.ColumnText(0)), Printable(s.ColumnText(1)), std::nullopt, std::nullopt,
                          Printable(s.ColumnText(4))};
    if (!s.ColumnIsNull(2)) c.attempt = s.ColumnInt(2);
    if (!s.ColumnIsNull(3)) c.created_at_ns = s.ColumnInt(3);
    snap.plugin_containers.push_back(c);
  }
  return s.status();
}

}  // namespace

std::span<const DiffFactQuery> FactQueries() { return kFactQueries; }

Result<BundleSnapshot> ReadSnapshot(Database& db, int64_t bundle, const std::string& path) {
  BundleSnapshot snap;
  snap.path = Printable(path);
  GPUF_RETURN_IF_ERROR(ReadIdentity(db, bundle, snap));
  snap.node_zone = Printable(NodeZoneName(db, bundle));
  GPUF_ASSIGN_OR_RETURN(ChainFacts chain, ReadChainFacts(db, bundle));
  for (const auto& q : kFactQueries) {
    GPUF_RETURN_IF_ERROR(ReadFacts(db, bundle, q, snap.facts));
    if (std::string_view(q.section) == "gpu_counts") {
      // The chain verdict follows the counts, before sockets and findings.
      for (const auto& step : JudgeChain(chain)) {
        // The steps outside the node are judged from the laptop's capture only: nothing to compare.
        if (OutsideTheNode(step.id)) continue;
        snap.facts.push_back({"chain", step.name, FactKind::kText, Word(step.status)});
        if (step.id == ChainStepId::kRegistration) snap.registration = Word(step.status);
      }
    }
  }
  GPUF_RETURN_IF_ERROR(ReadPluginContainers(db, bundle, snap));
  if (chain.node && chain.node->gpu_allocatable) snap.allocatable = Printable(*chain.node->gpu_allocatable);
  int64_t host_gpus = chain.host_nvml && chain.host_nvml->ran ? chain.host_nvml->gpus : 0;
  if (host_gpus > 0) {
    snap.gpus = host_gpus;
  } else if (chain.pci_gpus) {
    snap.gpus = *chain.pci_gpus;
  }
  return snap;
}

}  // namespace gpuf
