#include "collector/kubelet_flags.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// /proc/PID/cmdline: every argument followed by a NUL.
std::string Cmdline(std::initializer_list<std::string_view> argv) {
  std::string text;
  for (auto arg : argv) (text += arg) += '\0';
  return text;
}

}  // namespace

TEST_SUITE("kubelet_flags") {

TEST_CASE("KubeletArgvSources: the unit's ExecStart in systemd's order, its environment expanded") {
  MemoryHostFiles host;
  host.Add("/usr/lib/systemd/system/kubelet.service", "[Service]\nExecStart=/usr/bin/kubelet\n")
      // A drop-in in /usr/lib is hidden by one of the same name in /etc; drop-ins apply by name.
      .Add("/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf", "[Service]\nExecStart=\nExecStart=/bin/false\n")
      .Add("/etc/systemd/system/kubelet.service.d/10-kubeadm.conf",
           "[Service]\nEnvironment=\"A=--v=2\" B=--node-ip=10.0.0.7\nEnvironmentFile=-/etc/default/kubelet\n"
           "ExecStart=\nExecStart=-/usr/bin/kubelet $A ${B} \\\n  $KUBELET_EXTRA_ARGS $UNSET\n")
      .Add("/etc/systemd/system/kubelet.service.d/20-extra.conf", "[Unit]\nExecStart=/ignored/outside/service\n")
      .Add("/etc/default/kubelet", "KUBELET_EXTRA_ARGS='--hostname-override=node-a --max-pods=110'\n");
  std::vector<ArgvSource> sources = KubeletArgvSources(host, nullptr);
  REQUIRE(sources.size() == 2);
  CHECK(sources[0].kind == ArgvSource::kUnit);
  CHECK(sources[0].from == "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf");
  CHECK(sources[0].argv == std::vector<std::string>{"/usr/bin/kubelet", "--v=2", "--node-ip=10.0.0.7",
                                                    "--hostname-override=node-a", "--max-pods=110"});
  // The flag file on its own, as the next start would read it.
  CHECK(sources[1].kind == ArgvSource::kFlagFile);
  CHECK(sources[1].from == "/etc/default/kubelet");
  CHECK(sources[1].argv == std::vector<std::string>{"--hostname-override=node-a", "--max-pods=110"});
}

TEST_CASE("KubeletArgvSources: running kubelets first, then the platform's units and flag files") {
  MemoryHostFiles host;
  host.Add("/proc/812/comm", "rke2\n")
      .Add("/proc/812/cmdline", Cmdline({"/usr/local/bin/rke2", "agent"}))
      .Add("/proc/901/comm", "kubelet\n")
      .Add("/proc/901/cmdline", Cmdline({"kubelet", "--hostname-override=rke2-gpu-3"}))
      .Add("/proc/950/comm", "bash\n")
      .Add("/etc/rancher/rke2/config.yaml", "server: https://10.20.3.2:9345\nnode-name: rke2-gpu-3\n");
  std::vector<ArgvSource> sources = KubeletArgvSources(host, FindPlatform("rke2"));
  REQUIRE(sources.size() == 3);
  CHECK(sources[0].from == "/proc/812/cmdline");
  CHECK(sources[0].argv == std::vector<std::string>{"/usr/local/bin/rke2", "agent"});
  CHECK(sources[1].kind == ArgvSource::kRunning);
  CHECK(sources[1].argv == std::vector<std::string>{"kubelet", "--hostname-override=rke2-gpu-3"});
  CHECK(sources[2].kind == ArgvSource::kFlagFile);
  CHECK(sources[2].argv == std::vector<std::string>{"--node-name", " rke2-gpu-3"});
}

TEST_CASE("KubeletArgvSources: Bottlerocket's units live under its sys-root") {
  MemoryHostFiles host;
  host.Add("/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system/kubelet.service",
           "[Service]\nExecStart=/usr/bin/false\n")
      .Add("/etc/systemd/system/kubelet.service.d/exec-start.conf",
           "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet \\\n    --kubeconfig /etc/kubernetes/kubelet/kubeconfig \\\n"
           "    --config /etc/kubernetes/kubelet/config\n");
  std::vector<ArgvSource> sources = KubeletArgvSources(host, FindPlatform("bottlerocket"));
  REQUIRE(sources.size() == 1);
  CHECK(FlagValue(sources[0].argv, "kubeconfig") == "/etc/kubernetes/kubelet/kubeconfig");
  CHECK(FlagValue(sources[0].argv, "config") == "/etc/kubernetes/kubelet/config");
}

TEST_CASE("FlagValue: --name=value and --name value, the last one wins") {
  CHECK(FlagValue({"kubelet", "--hostname-override=a", "--hostname-override", "b"}, "hostname-override") == "b");
  CHECK(FlagValue({"kubelet", "--config=/x"}, "config") == "/x");
  CHECK(FlagValue({"kubelet", "--configx=/x", "--config"}, "config") == "");
}

}  // TEST_SUITE

}  // namespace gpuf
