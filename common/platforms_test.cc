#include "common/platforms.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace gpuf {

TEST_SUITE("platforms") {

TEST_CASE("PlatformTable: ids are unique, every row names its sources and how its Node is named") {
  std::set<std::string_view> ids;
  for (const auto& row : PlatformTable()) {
    CHECK(ids.insert(row.id).second);
    CHECK(!row.markers.empty());
    CHECK(!row.node_name.empty());
    CHECK(!row.sources.empty());
    for (auto source : PlatformWords(row.sources)) CHECK(source.rfind("https://", 0) == 0);
    if (row.layer == PlatformLayer::kDistribution) {
      CHECK(!row.kubelet_units.empty());
      CHECK(!row.kubeconfig.empty());
      CHECK(!row.runtime_socket.empty());
      CHECK((row.runtime == "containerd" || row.runtime == "cri-o"));
      CHECK((row.plugin == "daemonset" || row.plugin == "static-pod" || row.plugin == "host-unit"));
    }
  }
  CHECK(PlatformTable().back().layer == PlatformLayer::kAddOn);
  CHECK(FindPlatform("kubeadm")->kubeconfig == "/etc/kubernetes/kubelet.conf");
  CHECK(FindPlatform("openshift")->kubelet_config == "/etc/kubernetes/kubelet.conf");
  CHECK(FindPlatform("openshift")->kubeconfig == "/var/lib/kubelet/kubeconfig");
  CHECK(FindPlatform("nope") == nullptr);
}

TEST_CASE("PlatformWords: spaces separate, runs of them do not make empty words") {
  CHECK(PlatformWords("") == std::vector<std::string_view>{});
  CHECK(PlatformWords(" /a  /b /c ") == std::vector<std::string_view>{"/a", "/b", "/c"});
}

TEST_CASE("SystemdUnitDirs: systemd's own, then a platform's (Bottlerocket's sys-root)") {
  std::vector<std::string> standard = {"/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system",
                                       "/lib/systemd/system"};
  CHECK(SystemdUnitDirs(nullptr) == standard);
  CHECK(SystemdUnitDirs(FindPlatform("kubeadm")) == standard);
  auto bottlerocket = SystemdUnitDirs(FindPlatform("bottlerocket"));
  REQUIRE(bottlerocket.size() == 6);
  CHECK(bottlerocket[4] == "/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system");
}

TEST_CASE("RecognizePlatform: each distribution by its own files") {
  struct Case {
    const char* want;
    const char* evidence;
    MemoryHostFiles host;
  };
  // os-release as the distributions ship it.
  Case cases[] = {
      {"bottlerocket", "/etc/os-release: ID=bottlerocket",
       MemoryHostFiles().Add("/etc/os-release",
                             "NAME=Bottlerocket\nID=bottlerocket\nVERSION=\"1.20.3 (aws-k8s-1.29-nvidia)\"\n"
                             "VARIANT_ID=aws-k8s-1.29-nvidia\nVERSION_ID=1.20.3\n")},
      {"bottlerocket", "/x86_64-bottlerocket-linux-gnu",
       MemoryHostFiles().AddDir("/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system")},
      {"gke-cos", "/home/kubernetes/kubelet-config.yaml",
       MemoryHostFiles()
           .Add("/home/kubernetes/kubelet-config.yaml", "apiVersion: kubelet.config.k8s.io/v1beta1\n")
           .Add("/etc/os-release", "NAME=\"Container-Optimized OS\"\nID=cos\nVERSION_ID=109\n")},
      {"eks-al2023", "/etc/eks/kubelet/environment",
       MemoryHostFiles()
           .Add("/etc/eks/kubelet/environment", "NODEADM_KUBELET_ARGS=--hostname-override=ip-10-0-1-2.ec2.internal\n")
           .Add("/etc/os-release", "NAME=\"Amazon Linux\"\nVERSION=\"2023\"\nID=\"amzn\"\n")},
      {"openshift", "/etc/os-release: ID=rhcos",
       MemoryHostFiles()
           .Add("/etc/os-release",
                "NAME=\"Red Hat Enterprise Linux CoreOS\"\nID=\"rhcos\"\nVERSION_ID=\"4.15\"\n"
                "OPENSHIFT_VERSION=\"4.15\"\n")
           .Add("/etc/kubernetes/kubelet.conf", "kind: KubeletConfiguration\n")},
      {"rke2", "/etc/rancher/rke2",
       MemoryHostFiles().Add("/etc/rancher/rke2/config.yaml", "node-name: gpu-7\n")},
      {"k3s", "/var/lib/rancher/k3s",
       MemoryHostFiles().AddDir("/var/lib/rancher/k3s/agent").Add("/etc/os-release", "ID=ubuntu\n")},
      {"ack", "/etc/os-release: ID=alinux",
       MemoryHostFiles()
           .Add("/etc/os-release", "NAME=\"Alibaba Cloud Linux\"\nID=\"alinux\"\nVERSION_ID=\"3\"\n")
           .Add("/etc/kubernetes/kubelet.conf", "")},
      {"kubeadm", "/var/lib/kubelet/kubeadm-flags.env",
       MemoryHostFiles()
           .Add("/etc/os-release", "ID=ubuntu\n")
           .Add("/var/lib/kubelet/kubeadm-flags.env", "KUBELET_KUBEADM_ARGS=\"\"\n")},
      {"kubeadm", "", MemoryHostFiles()},
  };
  for (const auto& c : cases) {
    CAPTURE(c.want);
    PlatformMatch match = RecognizePlatform(c.host);
    REQUIRE(match.distribution != nullptr);
    CHECK(match.distribution->id == c.want);
    CHECK(match.evidence == c.evidence);
    CHECK(match.add_ons.empty());
  }
}

TEST_CASE("RecognizePlatform: the GPU Operator is an add-on to the distribution") {
  MemoryHostFiles host;
  host.Add("/etc/os-release", "ID=\"rhcos\"\nOPENSHIFT_VERSION=\"4.15\"\n")
      .AddDir("/run/nvidia/validations")
      .Add("/run/nvidia/driver/usr/bin/nvidia-smi", "");
  PlatformMatch match = RecognizePlatform(host);
  CHECK(match.Ids() == "openshift+gpu-operator");
  REQUIRE(match.add_ons.size() == 1);
  CHECK(match.add_ons[0]->driver_root == "/run/nvidia/driver");
}

TEST_CASE("RecognizePlatform: a key must have the value, '*' any value") {
  MemoryHostFiles cos_like;
  cos_like.Add("/etc/os-release", "ID=coss\n");
  CHECK(RecognizePlatform(cos_like).distribution->id == "kubeadm");
  MemoryHostFiles okd;
  okd.Add("/etc/os-release", "ID=\"fedora\"\nOPENSHIFT_VERSION=\"4.14\"\n");
  CHECK(RecognizePlatform(okd).distribution->id == "openshift");
  CHECK(RecognizePlatform(okd).evidence == "/etc/os-release: OPENSHIFT_VERSION=4.14");
}

TEST_CASE("EnvFileValue: quotes, export and the last assignment") {
  CHECK(EnvFileValue("ID=\"rhcos\"\n", "ID") == "rhcos");
  CHECK(EnvFileValue("A=1\nexport A='2'\n", "A") == "2");
  CHECK(EnvFileValue("IDX=1\n", "ID") == std::nullopt);
  CHECK(EnvFileValue("  KUBELET_NODE_NAME=ip-10-0-181-94.us-east-2.compute.internal\r\n", "KUBELET_NODE_NAME") ==
        "ip-10-0-181-94.us-east-2.compute.internal");
}

TEST_CASE("MemoryHostFiles: parents are directories and list their children once") {
  MemoryHostFiles host;
  host.Add("/a/b/c", "x").Add("/a/d", "y").AddDir("/a/e");
  CHECK(host.Exists("/a"));
  CHECK(host.Exists("/a/b"));
  CHECK(!host.Exists("/a/z"));
  CHECK(host.List("/a") == std::vector<std::string>{"b", "d", "e"});
  CHECK(host.Read("/a/b/c") == "x");
  CHECK(host.Read("/a/b", 10) == std::nullopt);
  CHECK(host.Read("/a/d", 0) == "");
}

TEST_CASE("PlatformFileAlternatives: every platform's place once, the fallback platform's first") {
  CHECK(PlatformFileAlternatives(PlatformFile::kContainerdConfig) ==
        "/etc/containerd/config.toml|/var/lib/rancher/rke2/agent/etc/containerd/config.toml|"
        "/var/lib/rancher/k3s/agent/etc/containerd/config.toml");
  CHECK(PlatformFileAlternatives(PlatformFile::kToolkitConfig) ==
        "/etc/nvidia-container-runtime/config.toml|"
        "/usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml");
  CHECK(PlatformFileAlternatives(PlatformFile::kFabricManagerLog) ==
        "/var/log/fabricmanager.log|/run/nvidia/driver/var/log/fabricmanager.log");
  std::string kubelet = PlatformFileAlternatives(PlatformFile::kKubeletConfig);
  CHECK(kubelet.rfind("/var/lib/kubelet/config.yaml|", 0) == 0);
  for (const char* place : {"/etc/kubernetes/kubelet/config.json", "/home/kubernetes/kubelet-config.yaml"}) {
    CHECK(kubelet.find(place) != std::string::npos);
  }
  CHECK(kubelet.find(".json.d") == std::string::npos);  // a drop-in directory is no file to read
  CHECK(PlatformFileAlternatives(PlatformFile::kNone) == "");
}

}  // TEST_SUITE

}  // namespace gpuf
