#include "analyzer/report/node_commands.h"

#include <doctest/doctest.h>

#include "analyzer/rules/sample_fixture.h"

namespace gpuf {

namespace {

using Columns = std::vector<std::pair<std::string, std::optional<std::string>>>;

// A bundle of node "gpu-7" holding `rows`.
NodeCommands CommandsFor(std::vector<SampleRow> rows, std::vector<SampleLine> lines = {}) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  RuleSample sample;
  sample.rows = std::move(rows);
  sample.lines = std::move(lines);
  YamlMark where;
  auto bundle = BuildSampleBundle(*db, sample, &where);
  REQUIRE_MESSAGE(bundle.ok(), bundle.status().message());
  REQUIRE(db->Exec("UPDATE bundles SET node_name = 'gpu-7'").ok());
  auto commands = ReadNodeCommands(*db, *bundle);
  REQUIRE_MESSAGE(commands.ok(), commands.status().message());
  return *commands;
}

SampleRow PluginContainer(const std::string& pod) {
  return {"containers",
          Columns{{"artifact", "runtime.crictl_ps"},
                  {"id", "f3d0365e077f8969c9c8806b8199336bd5e5549d21d399b3e4b30e42d6668713"},
                  {"name", "nvidia-device-plugin-ctr"},
                  {"pod_name", pod},
                  {"pod_namespace", "kube-system"},
                  {"state", "CONTAINER_RUNNING"},
                  {"created_at_ns", "1"},
                  {"is_plugin", "1"}},
          {}};
}

}  // namespace

TEST_SUITE("node_commands") {

TEST_CASE("ReadNodeCommands: a static pod's container is stopped and removed with crictl") {
  NodeCommands c = CommandsFor({PluginContainer("nvidia-device-plugin-gpu-7")});
  CHECK(c.restart_plugin == "crictl stop f3d0365e077f8 && crictl rm f3d0365e077f8");
  CHECK(c.restart_plugin_how ==
        "static pod nvidia-device-plugin-gpu-7: the kubelet starts a new container; deleting the mirror pod does not");
  CHECK(c.drain_node == "kubectl drain gpu-7 --ignore-daemonsets --delete-emptydir-data");
}

TEST_CASE("ReadNodeCommands: a DaemonSet's pod is deleted by name") {
  NodeCommands c = CommandsFor({PluginContainer("nvidia-device-plugin-daemonset-x2x5q")});
  CHECK(c.restart_plugin == "kubectl -n kube-system delete pod nvidia-device-plugin-daemonset-x2x5q");
  CHECK(c.restart_plugin_how == "its controller creates a new pod with a new container");
}

TEST_CASE("ReadNodeCommands: a host service is restarted by systemd, and no facts give no command") {
  SampleLine line;
  line.artifact = "journal.nvidia_device_plugin";
  line.text = "Registered device plugin for 'nvidia.com/gpu' with Kubelet";
  CHECK(CommandsFor({}, {line}).restart_plugin == "systemctl restart nvidia-k8s-device-plugin.service");
  NodeCommands none = CommandsFor({});
  CHECK(none.restart_plugin.empty());
  CHECK(ExpandCommands("Restart it: {restart-plugin}.", none) ==
        "Restart it: delete the device-plugin pod, or for a static pod stop and remove its container with crictl.");
}

TEST_CASE("ExpandCommands and CommandOf: the step made exact, or the command apart") {
  NodeCommands c = CommandsFor({PluginContainer("nvidia-device-plugin-daemonset-x2x5q")});
  CHECK(ExpandCommands("Restart it: {restart-plugin}.", c) ==
        "Restart it: kubectl -n kube-system delete pod nvidia-device-plugin-daemonset-x2x5q (its controller creates a "
        "new pod with a new container).");
  CHECK(ExpandCommands("Restart it: {restart-plugin}.", c, true) ==
        "Restart it: the command below (its controller creates a new pod with a new container).");
  CHECK(CommandOf("Restart it: {restart-plugin}.", c) == "kubectl -n kube-system delete pod nvidia-device-plugin-daemonset-x2x5q");
  CHECK(ExpandCommands("Drain ({drain-node}) and reboot.", c) ==
        "Drain (kubectl drain gpu-7 --ignore-daemonsets --delete-emptydir-data) and reboot.");
  CHECK(CommandOf("Drain ({drain-node}) and reboot.", c) == "kubectl drain gpu-7 --ignore-daemonsets --delete-emptydir-data");
  CHECK(CommandOf("Pin the packages.", c).empty());
}

}  // TEST_SUITE

}  // namespace gpuf
