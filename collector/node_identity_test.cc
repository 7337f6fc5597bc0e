#include "collector/node_identity.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

using Steps = std::vector<ManifestNameStep>;

// /proc/PID/cmdline: every argument followed by a NUL.
std::string Cmdline(std::initializer_list<std::string_view> argv) {
  std::string text;
  for (auto arg : argv) (text += arg) += '\0';
  return text;
}

NodeIdentityInputs Inputs(const MemoryHostFiles& host, std::string hostname = "") {
  NodeIdentityInputs in;
  in.host = &host;
  in.platform = RecognizePlatform(host);
  in.hostname = std::move(hostname);
  return in;
}

// kubeadm's drop-in, as ACK writes it (the override in KUBELET_EXTRA_ARGS).
constexpr char kAckDropIn[] =
    "[Service]\n"
    "Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf "
    "--kubeconfig=/etc/kubernetes/kubelet.conf\"\n"
    "Environment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n"
    "Environment=\"KUBELET_EXTRA_ARGS=--hostname-override=cn-hangzhou.10.42.7.19 "
    "--provider-id=cn-hangzhou.i-bp1d5x3k8f2q7hz2e7tk\"\n"
    "EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n"
    "ExecStart=\n"
    "ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS \\\n"
    "  $KUBELET_EXTRA_ARGS\n";

MemoryHostFiles AckHost() {
  MemoryHostFiles host;
  host.Add("/etc/os-release", "NAME=\"Alibaba Cloud Linux\"\nID=\"alinux\"\nVERSION_ID=\"3\"\n")
      .Add("/etc/hostname", "iZbp1d5x3k8f2q7hz2e7tkZ\n")
      .Add("/usr/lib/systemd/system/kubelet.service", "[Service]\nExecStart=/usr/bin/kubelet\n")
      .Add("/etc/systemd/system/kubelet.service.d/10-kubeadm.conf", kAckDropIn)
      .Add("/var/lib/kubelet/kubeadm-flags.env", "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=unix:///run/containerd/containerd.sock\"\n")
      .Add("/etc/kubernetes/kubelet.conf", "apiVersion: v1\nclusters:\n- cluster:\n");
  return host;
}

}  // namespace

TEST_SUITE("node_identity") {

TEST_CASE("ResolveNodeIdentity: --node wins and is the only step tried") {
  MemoryHostFiles host = AckHost();
  NodeIdentityInputs in = Inputs(host, "izbp1d5x3k8f2q7hz2e7tkz");
  in.option_node = "Node-A";
  in.env_node_name = "node-b";
  bool journal_read = false;
  in.kubelet_journal = [&] {
    journal_read = true;
    return std::string();
  };
  NodeIdentity id = ResolveNodeIdentity(in);
  CHECK(id.node_name == "Node-A");
  CHECK(id.node_name_source == "option");
  CHECK(id.steps == Steps{{"option", "--node", "Node-A"}});
  CHECK(id.hostname == "izbp1d5x3k8f2q7hz2e7tkz");
  CHECK(!journal_read);
}

TEST_CASE("ResolveNodeIdentity: $NODE_NAME after --node") {
  MemoryHostFiles host;
  NodeIdentityInputs in = Inputs(host, "host-1");
  in.env_node_name = "gpu-7";
  NodeIdentity id = ResolveNodeIdentity(in);
  CHECK(id.node_name == "gpu-7");
  CHECK(id.steps == Steps{{"option", "", ""}, {"node_object", "", ""}, {"env", "$NODE_NAME", "gpu-7"}});
}

TEST_CASE("ResolveNodeIdentity: the name of a Node given with --node-object before $NODE_NAME") {
  MemoryHostFiles host = AckHost();
  NodeIdentityInputs in = Inputs(host, "izbp1d5x3k8f2q7hz2e7tkz");
  in.node_object_name = "cn-hangzhou.10.42.7.19";
  in.env_node_name = "cn-hangzhou.10.42.7.19";
  NodeIdentity id = ResolveNodeIdentity(in);
  CHECK(id.node_name == "cn-hangzhou.10.42.7.19");
  CHECK(id.node_name_source == "node_object");
  CHECK(id.steps == Steps{{"option", "", ""}, {"node_object", "--node-object", "cn-hangzhou.10.42.7.19"}});
}

TEST_CASE("ResolveNodeIdentity: ACK's --hostname-override from the kubeadm drop-in, not the ECS hostname") {
  MemoryHostFiles host = AckHost();
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "izbp1d5x3k8f2q7hz2e7tkz"));
  CHECK(id.node_name == "cn-hangzhou.10.42.7.19");
  CHECK(id.node_name_source == "kubelet_flag");
  CHECK(id.steps == Steps{{"option", "", ""}, {"node_object", "", ""},
                          {"env", "", ""},
                          {"kubelet_flag", "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf",
                           "cn-hangzhou.10.42.7.19"}});
  CHECK(id.hostname == "izbp1d5x3k8f2q7hz2e7tkz");
  CHECK(id.kubeconfig == "/etc/kubernetes/kubelet.conf");
  CHECK(id.kubeconfig_source == "kubelet_flag");
}

TEST_CASE("ResolveNodeIdentity: the running kubelet's flags are the ones in effect") {
  MemoryHostFiles host = AckHost();
  host.Add("/proc/4242/comm", "kubelet\n")
      .Add("/proc/4242/cmdline", Cmdline({"/usr/bin/kubelet", "--hostname-override=cn-hangzhou.10.42.7.20"}))
      .Add("/proc/1/comm", "systemd\n");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host));
  CHECK(id.node_name == "cn-hangzhou.10.42.7.20");
  CHECK(id.steps.back() == ManifestNameStep{"kubelet_flag", "/proc/4242/cmdline", "cn-hangzhou.10.42.7.20"});

  SUBCASE("a running kubelet without the flag: the drop-in is only what the next start would use") {
    host.Add("/proc/4242/cmdline", Cmdline({"/usr/bin/kubelet", "--v=2"}));
    NodeIdentity plain = ResolveNodeIdentity(Inputs(host, "izbp1d5x3k8f2q7hz2e7tkz"));
    CHECK(plain.node_name == "izbp1d5x3k8f2q7hz2e7tkz");
    CHECK(plain.node_name_source == "hostname");
  }
}

TEST_CASE("ResolveNodeIdentity: EKS AL2023 passes the override through /etc/eks/kubelet/environment") {
  MemoryHostFiles host;
  host.Add("/etc/os-release", "NAME=\"Amazon Linux\"\nVERSION=\"2023\"\nID=\"amzn\"\n")
      .Add("/etc/systemd/system/kubelet.service",
           "[Unit]\nDescription=Kubernetes Kubelet\n\n[Service]\nSlice=runtime.slice\n"
           "EnvironmentFile=/etc/eks/kubelet/environment\nExecStartPre=/sbin/iptables -P FORWARD ACCEPT -w 5\n"
           "ExecStart=/usr/bin/kubelet $NODEADM_KUBELET_ARGS\n")
      // nodeadm writes KEY=value without quotes.
      .Add("/etc/eks/kubelet/environment",
           "NODEADM_KUBELET_ARGS=--node-ip=10.0.1.2 --hostname-override=ip-10-0-1-2.ec2.internal "
           "--cloud-provider=external --kubeconfig=/var/lib/kubelet/kubeconfig "
           "--config=/etc/kubernetes/kubelet/config.json\n")
      .Add("/etc/kubernetes/kubelet/config.json", "{\"kind\":\"KubeletConfiguration\"}")
      .Add("/var/lib/kubelet/kubeconfig", "apiVersion: v1\nclusters:\n");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "ip-10-0-1-2.ec2.internal"));
  CHECK(id.node_name == "ip-10-0-1-2.ec2.internal");
  CHECK(id.steps.back() == ManifestNameStep{"kubelet_flag", "/etc/systemd/system/kubelet.service",
                                            "ip-10-0-1-2.ec2.internal"});
  CHECK(id.kubeconfig == "/var/lib/kubelet/kubeconfig");
  CHECK(id.kubeconfig_source == "kubelet_flag");

  SUBCASE("hostnameOverride in the JSON KubeletConfiguration when no flag names the Node") {
    host.Add("/etc/eks/kubelet/environment", "NODEADM_KUBELET_ARGS=--node-ip=10.0.1.2\n")
        .Add("/etc/kubernetes/kubelet/config.json",
             "{\"apiVersion\":\"kubelet.config.k8s.io/v1beta1\",\"kind\":\"KubeletConfiguration\","
             "\"hostnameOverride\":\"ip-10-0-9-9.ec2.internal\"}");
    NodeIdentity by_config = ResolveNodeIdentity(Inputs(host, "ip-10-0-1-2.ec2.internal"));
    CHECK(by_config.node_name == "ip-10-0-9-9.ec2.internal");
    CHECK(by_config.steps.back() ==
          ManifestNameStep{"kubelet_config", "/etc/kubernetes/kubelet/config.json", "ip-10-0-9-9.ec2.internal"});
    CHECK(by_config.kubeconfig_source == "platform");
  }
}

TEST_CASE("ResolveNodeIdentity: OpenShift's ${KUBELET_NODE_NAME} and its KubeletConfiguration named kubelet.conf") {
  MemoryHostFiles host;
  host.Add("/etc/os-release", "NAME=\"Red Hat Enterprise Linux CoreOS\"\nID=\"rhcos\"\nOPENSHIFT_VERSION=\"4.15\"\n")
      .Add("/etc/systemd/system/kubelet.service",
           "[Unit]\nDescription=Kubernetes Kubelet\n\n[Service]\nType=notify\n"
           "EnvironmentFile=-/etc/kubernetes/kubelet-env\n"
           "ExecStart=/usr/bin/hyperkube \\\n    kubelet \\\n      --config=/etc/kubernetes/kubelet.conf \\\n"
           "      --kubeconfig=/var/lib/kubelet/kubeconfig \\\n      --hostname-override=${KUBELET_NODE_NAME} \\\n"
           "      --v=${KUBELET_LOG_LEVEL}\n")
      .Add("/etc/systemd/system/kubelet.service.d/20-aws-node-name.conf",
           "[Service]\nEnvironment=\"KUBELET_NODE_NAME=ip-10-0-181-94.us-east-2.compute.internal\"\n")
      .Add("/etc/kubernetes/kubelet.conf", "kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n")
      .Add("/var/lib/kubelet/kubeconfig", "apiVersion: v1\nclusters:\n");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "ip-10-0-181-94"));
  CHECK(id.node_name == "ip-10-0-181-94.us-east-2.compute.internal");
  CHECK(id.steps.back().from == "/etc/systemd/system/kubelet.service");
  CHECK(id.kubeconfig == "/var/lib/kubelet/kubeconfig");

  SUBCASE("an empty KUBELET_NODE_NAME is no name: the hostname it is") {
    host.Add("/etc/systemd/system/kubelet.service.d/20-aws-node-name.conf", "[Service]\n");
    NodeIdentity plain = ResolveNodeIdentity(Inputs(host, "worker-0.ocp.example.com"));
    CHECK(plain.node_name == "worker-0.ocp.example.com");
    CHECK(plain.node_name_source == "hostname");
  }
  SUBCASE("without the unit: the platform's kubeconfig, never the KubeletConfiguration") {
    MemoryHostFiles bare;
    bare.Add("/etc/os-release", "ID=\"rhcos\"\n")
        .Add("/etc/kubernetes/kubelet.conf", "kind: KubeletConfiguration\n")
        .Add("/var/lib/kubelet/kubeconfig", "");
    NodeIdentityInputs in = Inputs(bare, "w");
    in.read_head = [&](const std::string& path) { return bare.Read(path, 64); };
    NodeIdentity platform = ResolveNodeIdentity(in);
    CHECK(platform.kubeconfig == "/var/lib/kubelet/kubeconfig");
    CHECK(platform.kubeconfig_source == "platform");
  }
  SUBCASE("only the KubeletConfiguration: no kubeconfig, or the pod's own service account") {
    MemoryHostFiles bare;
    bare.Add("/etc/os-release", "ID=\"rhcos\"\n").Add("/etc/kubernetes/kubelet.conf", "kind: KubeletConfiguration\n");
    NodeIdentityInputs in = Inputs(bare, "w");
    NodeIdentity none = ResolveNodeIdentity(in);
    CHECK(none.kubeconfig == "");
    CHECK(none.kubeconfig_source == "");
    in.in_cluster = true;
    NodeIdentity in_cluster = ResolveNodeIdentity(in);
    CHECK(in_cluster.kubeconfig == "");
    CHECK(in_cluster.kubeconfig_source == "in_cluster");
  }
}

TEST_CASE("ResolveNodeIdentity: --kubeconfig and $KUBECONFIG come first, as given") {
  MemoryHostFiles host = AckHost();
  NodeIdentityInputs in = Inputs(host);
  in.env_kubeconfig = "/root/.kube/config";
  CHECK(ResolveNodeIdentity(in).kubeconfig == "/root/.kube/config");
  CHECK(ResolveNodeIdentity(in).kubeconfig_source == "env");
  in.option_kubeconfig = "/tmp/k";
  CHECK(ResolveNodeIdentity(in).kubeconfig == "/tmp/k");
  CHECK(ResolveNodeIdentity(in).kubeconfig_source == "option");
}

TEST_CASE("ResolveNodeIdentity: k3s and RKE2 name the Node in config.yaml or with --node-name") {
  MemoryHostFiles host;
  host.Add("/etc/rancher/k3s/config.yaml", "write-kubeconfig-mode: \"0644\"\nnode-name: \"k3s-gpu-1\"\n")
      .Add("/var/lib/rancher/k3s/agent/kubelet.kubeconfig", "");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "ubuntu"));
  CHECK(id.node_name == "k3s-gpu-1");
  CHECK(id.steps.back() == ManifestNameStep{"kubelet_flag", "/etc/rancher/k3s/config.yaml", "k3s-gpu-1"});
  CHECK(id.kubeconfig == "/var/lib/rancher/k3s/agent/kubelet.kubeconfig");
  CHECK(id.kubeconfig_source == "platform");

  MemoryHostFiles rke2;
  rke2.AddDir("/var/lib/rancher/rke2/bin")
      .Add("/proc/900/comm", "rke2\n")
      .Add("/proc/900/cmdline", Cmdline({"/usr/local/bin/rke2", "agent", "--node-name", "rke2-gpu-3"}));
  NodeIdentity rid = ResolveNodeIdentity(Inputs(rke2, "ubuntu"));
  CHECK(rid.node_name == "rke2-gpu-3");
  CHECK(rid.steps.back().from == "/proc/900/cmdline");
}

TEST_CASE("ResolveNodeIdentity: the mirror pod of a static pod names the Node") {
  MemoryHostFiles host;
  host.Add("/etc/kubernetes/manifests/nvidia-device-plugin.yml",
           "apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n    a: \"\"\n  labels:\n    name: x\n"
           "  name: nvidia-device-plugin\n  namespace: kube-system\nspec:\n  containers:\n  - name: ctr\n")
      .AddDir("/var/log/pods/kube-system_nvidia-device-plugin-cn-hangzhou.10.42.7.19_6f9a1c2e-1b7d-4f0e-9c3a-2d8e5b4a7c10")
      .AddDir("/var/log/pods/kube-system_nvidia-device-plugin-daemonset-x7k2p_0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f")
      .AddDir("/var/log/pods/kube-system_kube-proxy-worker-9_11111111-2222-3333-4444-555555555555");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "izbp1d5x3k8f2q7hz2e7tkz"));
  CHECK(id.node_name == "cn-hangzhou.10.42.7.19");
  CHECK(id.steps.back() ==
        ManifestNameStep{"mirror_pod",
                         "/var/log/pods/kube-system_nvidia-device-plugin-cn-hangzhou.10.42.7.19_"
                         "6f9a1c2e-1b7d-4f0e-9c3a-2d8e5b4a7c10",
                         "cn-hangzhou.10.42.7.19"});

  SUBCASE("a DaemonSet pod whose name starts like the static pod's does not win a tie") {
    MemoryHostFiles other;
    other.Add("/etc/kubernetes/manifests/nvidia-device-plugin.yml", "metadata:\n  name: nvidia-device-plugin\n"
                                                                   "  namespace: kube-system\n")
        .AddDir("/var/log/pods/kube-system_nvidia-device-plugin-daemonset-x7k2p_0c1d2e3f")
        .AddDir("/var/log/pods/kube-system_nvidia-device-plugin-worker-7_6f9a1c2e");
    CHECK(ResolveNodeIdentity(Inputs(other)).node_name == "worker-7");
  }
}

TEST_CASE("ResolveNodeIdentity: the kubelet's journal, asked for only when nothing earlier named the Node") {
  MemoryHostFiles host;
  NodeIdentityInputs in = Inputs(host, "host-1");
  int reads = 0;
  in.kubelet_journal = [&] {
    ++reads;
    return std::string(
        "I1118 11:18:05.951044    2044 kubelet_node_status.go:76] \"Attempting to register node\" node=\"gpu-a\"\n"
        "I1118 11:18:06.290551    2044 kubelet_node_status.go:79] \"Successfully registered node\" node=\"gpu-b\"\n");
  };
  NodeIdentity id = ResolveNodeIdentity(in);
  CHECK(reads == 1);
  CHECK(id.node_name == "gpu-b");
  CHECK(id.steps == Steps{{"option", "", ""}, {"node_object", "", ""},
                          {"env", "", ""},
                          {"kubelet_flag", "", ""},
                          {"kubelet_config", "", ""},
                          {"mirror_pod", "", ""},
                          {"kubelet_journal", "journal", "gpu-b"}});
}

TEST_CASE("ResolveNodeIdentity: RKE2's kubelet log file before the journal") {
  MemoryHostFiles host;
  host.AddDir("/var/lib/rancher/rke2/bin")
      .Add("/var/lib/rancher/rke2/agent/logs/kubelet.log",
           "I0312 09:01:02.000001    3121 kubelet_node_status.go:79] \"Successfully registered node\" "
           "node=\"rke2-worker-1\"\n");
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "localhost"));
  CHECK(id.node_name == "rke2-worker-1");
  CHECK(id.steps.back().from == "/var/lib/rancher/rke2/agent/logs/kubelet.log");
}

TEST_CASE("ResolveNodeIdentity: the hostname last, lower-cased as the kubelet does, and nothing at all is no name") {
  MemoryHostFiles host;
  NodeIdentity id = ResolveNodeIdentity(Inputs(host, "GPU-Node-1"));
  CHECK(id.node_name == "gpu-node-1");
  CHECK(id.node_name_source == "hostname");
  CHECK(id.steps.back() == ManifestNameStep{"hostname", "hostname", "gpu-node-1"});
  NodeIdentity none = ResolveNodeIdentity(Inputs(host, ""));
  CHECK(none.node_name == "");
  CHECK(none.node_name_source == "");
  CHECK(none.steps.size() == 8);
  CHECK(none.steps.back() == ManifestNameStep{"hostname", "", ""});
}

TEST_CASE("NodeNameFromKubeletLog: both registration wordings and k3s' Running kubelet line, the last winning") {
  CHECK(NodeNameFromKubeletLog("I0101 kubelet_node_status.go:75] Successfully registered node old-name\n") ==
        "old-name");
  CHECK(NodeNameFromKubeletLog(
            "May 18 19:57:23 node2 k3s[15774]: time=\"2022-05-18T19:57:23Z\" level=info msg=\"Running kubelet "
            "--address=0.0.0.0 --anonymous-auth=false --hostname-override=node2 --kubeconfig=/var/lib/rancher/k3s/"
            "agent/kubelet.kubeconfig\"\n") == "node2");
  CHECK(NodeNameFromKubeletLog("Successfully registered node a\n\"Successfully registered node\" node=\"b\"\n") == "b");
  CHECK(NodeNameFromKubeletLog("Attempting to register node x\n") == "");
}

TEST_CASE("LeadingDocumentKind: only the leading apiVersion and kind count") {
  CHECK(LeadingDocumentKind("kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n") ==
        "KubeletConfiguration");
  CHECK(LeadingDocumentKind("apiVersion: kubelet.config.k8s.io/v1beta1\nauthentication:\n") == "KubeletConfiguration");
  CHECK(LeadingDocumentKind("# kubelet\n---\napiVersion: v1\nkind: Config\n") == "Config");
  CHECK(LeadingDocumentKind("apiVersion: v1\nclusters:\n- cluster:\nkind: KubeletConfiguration\n") == "");
  CHECK(LeadingDocumentKind("{\"kind\":\"KubeletConfiguration\",\"apiVersion\":\"kubelet.config.k8s.io/v1beta1\"}") ==
        "KubeletConfiguration");
  CHECK(LeadingDocumentKind("{\"apiVersion\": \"v1\", \"clusters\": [], \"kind\": \"KubeletConfiguration\"}") == "");
  CHECK(LeadingDocumentKind("") == "");
}

}  // TEST_SUITE

}  // namespace gpuf
