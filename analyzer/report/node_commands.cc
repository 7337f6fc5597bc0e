#include "analyzer/report/node_commands.h"

#include "common/journal_slices.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

constexpr std::string_view kRestartPlugin = "{restart-plugin}";
constexpr std::string_view kDrainNode = "{drain-node}";

// The newest plugin container, and whether its pod is a static pod: the
// kubelet names a static pod's mirror "<name>-<node>", and a plugin
// setting read from a manifest under the static pod path says so too.
constexpr const char* kPluginSql = R"sql(
  SELECT c.id, ifnull(c.pod_name, ''), ifnull(c.pod_namespace, ''),
         (EXISTS (SELECT 1 FROM plugin_config p JOIN artifacts a USING (artifact_id)
                  WHERE a.bundle_id = :bundle AND p.source = 'static_pod')
          OR (c.pod_name IS NOT NULL AND b.node_name <> '' AND c.pod_name LIKE '%-' || b.node_name)) AS static_pod
  FROM containers c JOIN bundles b USING (bundle_id)
  WHERE c.bundle_id = :bundle AND c.is_plugin = 1
  ORDER BY c.created_at_ns DESC, c.id LIMIT 1)sql";

constexpr const char* kServiceSql = R"sql(
  SELECT count(*) FROM artifacts a JOIN journal_entries j USING (artifact_id)
  WHERE a.bundle_id = ?1 AND a.name = ?2)sql";


}  // namespace

Result<NodeCommands> ReadNodeCommands(Database& db, int64_t bundle_id) {
  NodeCommands c;
  GPUF_ASSIGN_OR_RETURN(Statement node, db.Prepare("SELECT ifnull(node_name, '') FROM bundles WHERE bundle_id = ?"));
  node.Bind(1, bundle_id);
  std::string node_name = node.Step() ? node.ColumnText(0) : "";
  GPUF_RETURN_IF_ERROR(node.status());
  if (!node_name.empty()) c.drain_node = "kubectl drain " + node_name + " --ignore-daemonsets --delete-emptydir-data";

  GPUF_ASSIGN_OR_RETURN(Statement plugin, db.Prepare(kPluginSql));
  plugin.BindNamed(":bundle", bundle_id);
  if (plugin.Step()) {
    std::string id = plugin.ColumnText(0).substr(0, 13);
    std::string pod = plugin.ColumnText(1), ns = plugin.ColumnText(2);
    if (plugin.ColumnInt(3) != 0) {
      c.restart_plugin = "crictl stop " + id + " && crictl rm " + id;
      c.restart_plugin_how = "static pod" + (pod.empty() ? "" : " " + pod) +
                             ": the kubelet starts a new container; deleting the mirror pod does not";
    } else if (!pod.empty() && !ns.empty()) {
      c.restart_plugin = "kubectl -n " + ns + " delete pod " + pod;
      c.restart_plugin_how = "its controller creates a new pod with a new container";
    }
  }
  GPUF_RETURN_IF_ERROR(plugin.status());
  if (!c.restart_plugin.empty()) return c;

  GPUF_ASSIGN_OR_RETURN(Statement service, db.Prepare(kServiceSql));
  service.Bind(1, bundle_id).Bind(2, kPluginJournalSlice);
  if (service.Step() && service.ColumnInt(0) > 0) {
    const JournalSliceRow* slice = FindJournalSlice(kPluginJournalSlice);
    c.restart_plugin = "systemctl restart " + std::string(slice->unit);
    c.restart_plugin_how = "the device plugin runs as a host service";
  }
  GPUF_RETURN_IF_ERROR(service.status());
  return c;
}

std::string ExpandCommands(const std::string& step, const NodeCommands& c, bool command_apart) {
  std::string restart = c.restart_plugin.empty()
                            ? "delete the device-plugin pod, or for a static pod stop and remove its container with "
                              "crictl"
                            : (command_apart ? "the command below" : c.restart_plugin) + " (" + c.restart_plugin_how + ")";
  std::string drain = c.drain_node.empty() ? "kubectl drain the node" : command_apart ? "the command below" : c.drain_node;
  return ReplaceAll(ReplaceAll(step, kRestartPlugin, restart), kDrainNode, drain);
}

std::string CommandOf(const std::string& step, const NodeCommands& c) {
  size_t restart = step.find(kRestartPlugin), drain = step.find(kDrainNode);
  if (restart != std::string::npos && (drain == std::string::npos || restart < drain)) return c.restart_plugin;
  if (drain != std::string::npos) return c.drain_node;
  return "";
}

}  // namespace gpuf
