#include "analyzer/report.h"

#include "common/time_format.h"

namespace gpuf {

namespace {

// Runs a query whose rows are rendered by `row`; returns the rendered rows.
template <typename Fn>
Result<std::vector<std::string>> Rows(Database& db, std::string_view sql, Fn row) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  std::vector<std::string> out;
  while (s.Step()) out.push_back(row(s));
  GPUF_RETURN_IF_ERROR(s.status());
  return out;
}

Result<int64_t> Count(Database& db, std::string_view sql) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  int64_t n = s.Step() ? s.ColumnInt(0) : 0;
  GPUF_RETURN_IF_ERROR(s.status());
  return n;
}

std::string Evidence(const std::string& name, const std::string& instance, int64_t line) {
  std::string where = name + (instance.empty() ? "" : "[" + instance + "]");
  return line > 0 ? where + ":" + std::to_string(line) : where;
}

Status AddDriverFacts(Database& db, Report& r) {
  GPUF_ASSIGN_OR_RETURN(int64_t pci, Count(db, "SELECT count(*) FROM pci_devices WHERE role = 'gpu'"));
  GPUF_ASSIGN_OR_RETURN(int64_t pci_artifact, Count(db,
      "SELECT count(*) FROM artifacts WHERE name = 'pci.nvidia_functions' AND status = 'ok'"));
  r.chain.push_back({"PCI", pci_artifact ? std::to_string(pci) + " NVIDIA GPU functions" : "not captured",
                     pci_artifact ? "pci.nvidia_functions" : ""});

  GPUF_ASSIGN_OR_RETURN(auto driver, Rows(db,
      "SELECT l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.name = 'driver.version' AND l.line = 1",
      [](Statement& s) { return s.ColumnText(0); }));
  r.chain.push_back({"NVIDIA driver", driver.empty() ? "no /proc/driver/nvidia/version (module not loaded?)" : driver[0],
                     driver.empty() ? "" : "driver.version:1"});

  GPUF_ASSIGN_OR_RETURN(int64_t nodes, Count(db,
      "SELECT count(*) FROM device_nodes WHERE type = 'c' AND path GLOB '/dev/nvidia[0-9]*'"));
  GPUF_ASSIGN_OR_RETURN(int64_t links, Count(db, "SELECT count(*) FROM char_links WHERE target LIKE '%nvidia%'"));
  r.chain.push_back({"device nodes", std::to_string(nodes) + " /dev/nvidiaN, " + std::to_string(links) +
                                         " /dev/char links to nvidia devices",
                     "dev.nvidia_nodes, dev.char_links"});
  return Status::Ok();
}

Status AddNvmlFacts(Database& db, Report& r) {
  GPUF_ASSIGN_OR_RETURN(auto host, Rows(db,
      "SELECT a.status, (SELECT count(*) FROM gpus g WHERE g.artifact_id = a.artifact_id), "
      "coalesce(r.outcome, a.status), coalesce(r.message, ''), coalesce(a.skip_reason, '') "
      "FROM artifacts a LEFT JOIN nvidia_smi_runs r USING (artifact_id) WHERE a.name = 'host.nvidia_smi_list'",
      [](Statement& s) {
        std::string status = s.ColumnText(0);
        if (status == "skipped") return "not run (" + s.ColumnText(4) + ")";
        std::string gpus = std::to_string(s.ColumnInt(1)) + " GPUs";
        if (s.ColumnText(2) == "ok") return gpus;
        std::string failure = s.ColumnText(2) + (s.ColumnText(3).empty() ? "" : ": " + s.ColumnText(3));
        return s.ColumnInt(1) > 0 ? gpus + ", then " + failure : failure;
      }));
  r.chain.push_back({"host nvidia-smi -L", host.empty() ? "not captured" : host[0],
                     host.empty() ? "" : "host.nvidia_smi_list"});

  GPUF_ASSIGN_OR_RETURN(auto plugin, Rows(db,
      "SELECT v.container_id, min(v.outcome), count(v.uuid), max(v.detail) FROM container_gpu_views v "
      "GROUP BY v.container_id ORDER BY v.container_id",
      [](Statement& s) {
        std::string id = s.ColumnText(0).substr(0, 13);
        if (s.ColumnText(1) == "ok") return id + ": " + std::to_string(s.ColumnInt(2)) + " GPUs";
        return id + ": " + s.ColumnText(1) + ": " + s.ColumnText(3);
      }));
  if (plugin.empty()) r.chain.push_back({"plugin container nvidia-smi", "no running plugin container probed", ""});
  for (const auto& p : plugin) r.chain.push_back({"plugin container nvidia-smi", p, "plugin.nvidia_smi_list"});
  return Status::Ok();
}

Status AddPluginFacts(Database& db, Report& r) {
  const char* kFirstMatch =
      "SELECT a.name, a.instance, l.line, l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.name IN ('plugin.log', 'plugin.crictl_logs') AND l.text LIKE ? "
      "ORDER BY l.text DESC LIMIT 1";
  for (auto [label, pattern] : {std::pair{"plugin log: NVML", "%Failed to initialize NVML%"},
                                std::pair{"plugin log: registered", "%Registered device plugin for%"}}) {
    GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(kFirstMatch));
    s.Bind(1, std::string_view(pattern));
    if (s.Step()) {
      r.chain.push_back({label, s.ColumnText(3), Evidence(s.ColumnText(0), s.ColumnText(1), s.ColumnInt(2))});
    } else {
      r.chain.push_back({label, "no such line in the plugin logs", ""});
    }
    GPUF_RETURN_IF_ERROR(s.status());
  }
  GPUF_ASSIGN_OR_RETURN(auto sockets, Rows(db,
      "SELECT '/var/lib/kubelet/device-plugins/' || name, mtime_ns FROM plugin_sockets WHERE type = 's' "
      "ORDER BY mtime_ns",
      [](Statement& s) { return s.ColumnText(0) + " (modified " + FormatRfc3339Utc(s.ColumnInt(1)) + ")"; }));
  if (sockets.empty()) r.chain.push_back({"device-plugin sockets", "none listed", "kubelet.device_plugins"});
  for (const auto& s : sockets) r.chain.push_back({"device-plugin sockets", s, "kubelet.device_plugins"});

  GPUF_ASSIGN_OR_RETURN(auto resources, Rows(db,
      "SELECT field, quantity FROM node_resources WHERE resource = 'nvidia.com/gpu' ORDER BY field DESC",
      [](Statement& s) { return s.ColumnText(0) + " " + s.ColumnText(1); }));
  std::string value;
  for (const auto& x : resources) value += (value.empty() ? "" : ", ") + x;
  GPUF_ASSIGN_OR_RETURN(int64_t have_node, Count(db,
      "SELECT count(*) FROM artifacts WHERE name = 'k8s.node' AND status = 'ok'"));
  r.chain.push_back({"node nvidia.com/gpu",
                     have_node ? (value.empty() ? "resource absent from the Node" : value) : "Node object not captured",
                     have_node ? "k8s.node" : ""});
  return Status::Ok();
}

Status AddCoverage(Database& db, Report& r) {
  GPUF_ASSIGN_OR_RETURN(auto journal, Rows(db,
      "SELECT a.name, a.instance, count(j.line) FROM artifacts a LEFT JOIN journal_entries j USING (artifact_id) "
      "WHERE a.name LIKE 'journal.%' AND a.status = 'ok' GROUP BY a.artifact_id ORDER BY a.name, a.instance",
      [](Statement& s) {
        return s.ColumnText(0) + " " + s.ColumnText(1) + ": " + std::to_string(s.ColumnInt(2)) + " entries";
      }));
  r.journal_counts = journal;
  GPUF_ASSIGN_OR_RETURN(r.coverage, Rows(db,
      "SELECT name, instance, status, coalesce(skip_reason, ''), coalesce(error, '') FROM artifacts "
      "WHERE status <> 'ok' ORDER BY status, name, instance",
      [](Statement& s) {
        std::string line = Evidence(s.ColumnText(0), s.ColumnText(1), 0) + ": " + s.ColumnText(2);
        if (!s.ColumnText(3).empty()) line += " (" + s.ColumnText(3) + ")";
        if (!s.ColumnText(4).empty()) line += " " + s.ColumnText(4);
        return line;
      }));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_total, Count(db, "SELECT count(*) FROM artifacts"));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_ok, Count(db, "SELECT count(*) FROM artifacts WHERE status = 'ok'"));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_skipped, Count(db, "SELECT count(*) FROM artifacts WHERE status = 'skipped'"));
  r.artifacts_failed = r.artifacts_total - r.artifacts_ok - r.artifacts_skipped;
  GPUF_ASSIGN_OR_RETURN(r.load_warnings, Count(db, "SELECT count(*) FROM parse_warnings"));
  return Status::Ok();
}

}  // namespace

Result<Report> BuildReport(Database& db, const LoadResult& loaded, const std::string& bundle_path) {
  Report r;
  const Manifest& m = loaded.manifest;
  r.bundle_path = bundle_path;
  r.node = m.node_name;
  r.collected_at_utc = FormatRfc3339Utc(m.started_at_unix_ns);
  r.tool_version = m.tool_version;
  r.complete = m.complete;
  r.incomplete_reason = m.incomplete_reason;
  for (const auto& issue : loaded.integrity_issues) r.integrity_issues.push_back(issue.member + ": " + issue.problem);
  GPUF_RETURN_IF_ERROR(AddDriverFacts(db, r));
  GPUF_RETURN_IF_ERROR(AddNvmlFacts(db, r));
  GPUF_RETURN_IF_ERROR(AddPluginFacts(db, r));
  GPUF_RETURN_IF_ERROR(AddCoverage(db, r));
  return r;
}

}  // namespace gpuf
