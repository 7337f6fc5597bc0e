#include "common/platforms.h"

#include <algorithm>

namespace gpuf {

namespace {

// Recognition markers, most specific first within each platform.
constexpr PlatformMarker kBottlerocketMarkers[] = {
    {"/etc/os-release", "ID", "bottlerocket"},
    {"/x86_64-bottlerocket-linux-gnu"},
    {"/aarch64-bottlerocket-linux-gnu"},
};
constexpr PlatformMarker kGkeMarkers[] = {
    {"/home/kubernetes/kubelet-config.yaml"},
    {"/etc/os-release", "ID", "cos"},
};
constexpr PlatformMarker kEksMarkers[] = {
    {"/etc/eks/kubelet/environment"},
    {"/etc/kubernetes/kubelet/config.json"},
};
constexpr PlatformMarker kOpenShiftMarkers[] = {
    {"/etc/os-release", "ID", "rhcos"},
    {"/etc/os-release", "OPENSHIFT_VERSION", "*"},
};
constexpr PlatformMarker kRke2Markers[] = {
    {"/etc/rancher/rke2"},
    {"/var/lib/rancher/rke2"},
};
constexpr PlatformMarker kK3sMarkers[] = {
    {"/etc/rancher/k3s"},
    {"/var/lib/rancher/k3s"},
};
constexpr PlatformMarker kAckMarkers[] = {
    {"/etc/os-release", "ID", "alinux"},
};
constexpr PlatformMarker kKubeadmMarkers[] = {
    {"/var/lib/kubelet/kubeadm-flags.env"},
    {"/etc/kubernetes/kubelet.conf"},
};
constexpr PlatformMarker kGpuOperatorMarkers[] = {
    {"/run/nvidia/validations"},
    {"/usr/local/nvidia/toolkit"},
    {"/run/nvidia/driver/usr/bin"},
};

// Distributions in the order they are tried: a platform whose markers could
// also hold on another (RHCOS and k3s nodes carry kubeadm-like files) comes
// before it; kubeadm is last, and the fallback.
constexpr PlatformRow kPlatforms[] = {
    {.id = "bottlerocket",
     .name = "Bottlerocket (EKS)",
     .markers = kBottlerocketMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/systemd/system/kubelet.service.d /etc/kubernetes/kubelet/env",
     .kubelet_config = "/etc/kubernetes/kubelet/config",
     .kubeconfig = "/etc/kubernetes/kubelet/kubeconfig",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/containerd/containerd.sock",
     .runtime_config = "/etc/containerd/config.toml",
     .toolkit = "/usr/bin/nvidia-container-runtime /etc/nvidia-container-runtime/config.toml",
     .driver_root = "/",
     .plugin = "host-unit",
     .plugin_logs = "journal:nvidia-k8s-device-plugin.service /etc/nvidia-k8s-device-plugin/settings.yaml",
     .tool_dirs = "/usr/libexec/nvidia/tesla/bin",
     .unit_dirs = "/x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system "
                  "/aarch64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system",
     .node_name = "the EC2 private DNS name, which is also the hostname; settings.kubernetes.hostname-override "
                  "becomes --hostname-override in /etc/systemd/system/kubelet.service.d/exec-start.conf. "
                  "No crictl on the host.",
     .sources = "https://github.com/bottlerocket-os/bottlerocket-core-kit/blob/a10182f974abd19de803bb7a324b5a0bdeab4ced/packages/kubernetes-1.30/kubelet-exec-start-conf "
                "https://github.com/bottlerocket-os/bottlerocket-core-kit/blob/a10182f974abd19de803bb7a324b5a0bdeab4ced/packages/nvidia-k8s-device-plugin/nvidia-k8s-device-plugin.service "
                "https://github.com/bottlerocket-os/bottlerocket-core-kit/blob/a10182f974abd19de803bb7a324b5a0bdeab4ced/packages/kmod-6.1-nvidia/kmod-6.1-nvidia.spec "
                "https://github.com/bottlerocket-os/bottlerocket/issues/4250"},
    {.id = "gke-cos",
     .name = "GKE on Container-Optimized OS",
     .markers = kGkeMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/default/kubelet /etc/systemd/system/kubelet.service.d",
     .kubelet_config = "/home/kubernetes/kubelet-config.yaml",
     .kubeconfig = "/var/lib/kubelet/kubeconfig",
     .static_pod_dirs = "/etc/kubernetes/manifests",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/containerd/containerd.sock",
     .runtime_config = "/etc/containerd/config.toml",
     .toolkit = "",
     .driver_root = "/",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/kube-system_nvidia-gpu-device-plugin-*",
     .tool_dirs = "/home/kubernetes/bin /home/kubernetes/bin/nvidia/bin",
     .node_name = "the hostname (gke-CLUSTER-POOL-HASH-SUFFIX). Google's own device plugin "
                  "(nvidia-gpu-device-plugin) mounts the driver from /home/kubernetes/bin/nvidia; "
                  "no NVIDIA container toolkit.",
     .sources = "https://github.com/GoogleCloudPlatform/container-engine-accelerators/blob/992db81257553607f1477945f1b3219632991829/cmd/nvidia_gpu/device-plugin.yaml "
                "https://github.com/GoogleCloudPlatform/container-engine-accelerators/blob/992db81257553607f1477945f1b3219632991829/pkg/gpu/nvidia/manager.go "
                "https://github.com/aquasecurity/kube-bench/blob/main/cfg/config.yaml"},
    {.id = "eks-al2023",
     .name = "Amazon EKS on Amazon Linux 2023",
     .markers = kEksMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/eks/kubelet/environment /etc/systemd/system/kubelet.service.d",
     .kubelet_config = "/etc/kubernetes/kubelet/config.json /etc/kubernetes/kubelet/config.json.d",
     .kubeconfig = "/var/lib/kubelet/kubeconfig",
     .static_pod_dirs = "/etc/kubernetes/manifests",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/containerd/containerd.sock",
     .runtime_config = "/etc/containerd/config.toml",
     .toolkit = "/usr/bin/nvidia-container-runtime /etc/nvidia-container-runtime/config.toml",
     .driver_root = "/",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/kube-system_nvidia-device-plugin-daemonset-*",
     .node_name = "nodeadm passes --hostname-override (the EC2 private DNS name, ip-10-0-1-2.ec2.internal, or "
                  "the instance id under InstanceIdNodeName) in NODEADM_KUBELET_ARGS of "
                  "/etc/eks/kubelet/environment.",
     .sources = "https://github.com/awslabs/amazon-eks-ami/blob/81fec2e895854f599974fe4d3d72f61c0a9aaffa/nodeadm/internal/kubelet/config.go "
                "https://github.com/awslabs/amazon-eks-ami/blob/81fec2e895854f599974fe4d3d72f61c0a9aaffa/nodeadm/internal/kubelet/environment.go "
                "https://github.com/awslabs/amazon-eks-ami/blob/81fec2e895854f599974fe4d3d72f61c0a9aaffa/templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service"},
    {.id = "openshift",
     .name = "OpenShift (RHCOS, CRI-O)",
     .markers = kOpenShiftMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/systemd/system/kubelet.service.d /etc/kubernetes/node.env /etc/kubernetes/kubelet-env",
     .kubelet_config = "/etc/kubernetes/kubelet.conf",
     .kubeconfig = "/var/lib/kubelet/kubeconfig",
     .static_pod_dirs = "/etc/kubernetes/manifests",
     .kubelet_log = "journal",
     .runtime = "cri-o",
     .runtime_socket = "/var/run/crio/crio.sock",
     .runtime_config = "/etc/crio/crio.conf /etc/crio/crio.conf.d",
     .toolkit = "/usr/local/nvidia/toolkit",
     .driver_root = "/run/nvidia/driver",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/nvidia-gpu-operator_nvidia-device-plugin-daemonset-*",
     .node_name = "--hostname-override=${KUBELET_NODE_NAME}, set in /etc/kubernetes/node.env (earlier "
                  "/etc/systemd/system/kubelet.service.d/20-aws-node-name.conf); /etc/kubernetes/kubelet.conf is a "
                  "KubeletConfiguration, not a kubeconfig.",
     .sources = "https://github.com/openshift/machine-config-operator/blob/0195012bfa71f99a5eee4d8a4854b693ee1b4452/templates/worker/01-worker-kubelet/_base/units/kubelet.service.yaml "
                "https://github.com/openshift/machine-config-operator/blob/01e20aa8eaafd9c8d2c7ccd7c4ae61db0f6ea805/templates/worker/01-worker-kubelet/_base/files/kubelet.yaml "
                "https://github.com/openshift/machine-config-operator/blob/0b4be76378147ad9031587c20335f08c0f007e1b/templates/common/aws/files/usr-local-bin-aws-kubelet-nodename.yaml"},
    {.id = "rke2",
     .name = "RKE2",
     .markers = kRke2Markers,
     .kubelet_units = "rke2-agent.service rke2-server.service",
     .kubelet_flag_files = "/etc/rancher/rke2/config.yaml",
     .kubeconfig = "/var/lib/rancher/rke2/agent/kubelet.kubeconfig",
     .static_pod_dirs = "/var/lib/rancher/rke2/agent/pod-manifests",
     .kubelet_log = "/var/lib/rancher/rke2/agent/logs/kubelet.log",
     .runtime = "containerd",
     .runtime_socket = "/run/k3s/containerd/containerd.sock",
     .runtime_config = "/var/lib/rancher/rke2/agent/etc/containerd/config.toml /var/lib/rancher/rke2/agent/etc/crictl.yaml",
     .toolkit = "/usr/local/nvidia/toolkit",
     .driver_root = "/run/nvidia/driver",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/*_nvidia-device-plugin-daemonset-*",
     .other_logs = "/var/lib/rancher/rke2/agent/containerd/containerd.log",
     .tool_dirs = "/var/lib/rancher/rke2/bin",
     .node_name = "the hostname, or node-name in /etc/rancher/rke2/config.yaml, which becomes --hostname-override "
                  "in the \"Running kubelet\" line rke2 logs.",
     .sources = "https://docs.rke2.io/reference/logging https://docs.rke2.io/reference/cli_tools "
                "https://docs.rke2.io/add-ons/gpu_operators"},
    {.id = "k3s",
     .name = "k3s",
     .markers = kK3sMarkers,
     .kubelet_units = "k3s.service k3s-agent.service",
     .kubelet_flag_files = "/etc/rancher/k3s/config.yaml",
     .kubeconfig = "/var/lib/rancher/k3s/agent/kubelet.kubeconfig",
     .static_pod_dirs = "/var/lib/rancher/k3s/agent/pod-manifests",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/k3s/containerd/containerd.sock",
     .runtime_config = "/var/lib/rancher/k3s/agent/etc/containerd/config.toml /var/lib/rancher/k3s/agent/etc/crictl.yaml",
     .toolkit = "/usr/bin/nvidia-container-runtime /etc/nvidia-container-runtime/config.toml",
     .driver_root = "/",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/kube-system_nvidia-device-plugin-daemonset-*",
     .tool_dirs = "/usr/local/bin",
     .node_name = "the hostname, or --node-name / node-name in /etc/rancher/k3s/config.yaml; k3s logs the "
                  "kubelet's flags (--hostname-override) in its \"Running kubelet\" journal line.",
     .sources = "https://docs.k3s.io/cli https://github.com/k3s-io/docs/pull/213/files "
                "https://github.com/k3s-io/docs/blob/240af6130d55bddd0de1178ad40684500cfb0f85/docs/security/self-assessment-1.8.md"},
    {.id = "ack",
     .name = "Alibaba Cloud ACK",
     .markers = kAckMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/systemd/system/kubelet.service.d /var/lib/kubelet/kubeadm-flags.env /etc/sysconfig/kubelet",
     .kubelet_config = "/var/lib/kubelet/config.yaml",
     .kubeconfig = "/etc/kubernetes/kubelet.conf",
     .static_pod_dirs = "/etc/kubernetes/manifests",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/containerd/containerd.sock",
     .runtime_config = "/etc/containerd/config.toml",
     .toolkit = "/usr/bin/nvidia-container-runtime /etc/nvidia-container-runtime/config.toml",
     .driver_root = "/",
     .plugin = "static-pod",
     .plugin_logs = "/etc/kubernetes/manifests/nvidia-device-plugin.yml /var/log/pods/kube-system_nvidia-device-plugin-*",
     .node_name = "REGION.PRIVATE-IP (cn-hangzhou.10.42.7.19) through --hostname-override; the hostname is the "
                  "ECS one (iZ<instance id>Z).",
     .sources = "https://github.com/alibaba/terraform-provider/issues/262 "
                "https://github.com/kubernetes/cloud-provider-alibaba-cloud/issues/8 "
                "https://www.alibabacloud.com/help/en/ack/ack-managed-and-ack-dedicated/user-guide/gpu-device-plugin-related-operations"},
    {.id = "kubeadm",
     .name = "kubeadm-style node",
     .markers = kKubeadmMarkers,
     .kubelet_units = "kubelet.service",
     .kubelet_flag_files = "/etc/systemd/system/kubelet.service.d /usr/lib/systemd/system/kubelet.service.d "
                           "/lib/systemd/system/kubelet.service.d /var/lib/kubelet/kubeadm-flags.env "
                           "/etc/default/kubelet /etc/sysconfig/kubelet",
     .kubelet_config = "/var/lib/kubelet/config.yaml",
     .kubeconfig = "/etc/kubernetes/kubelet.conf",
     .static_pod_dirs = "/etc/kubernetes/manifests",
     .kubelet_log = "journal",
     .runtime = "containerd",
     .runtime_socket = "/run/containerd/containerd.sock",
     .runtime_config = "/etc/containerd/config.toml /etc/containerd/conf.d /etc/crictl.yaml",
     .toolkit = "/usr/bin/nvidia-container-runtime /etc/nvidia-container-runtime/config.toml",
     .driver_root = "/",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/kube-system_nvidia-device-plugin-daemonset-*",
     .node_name = "the hostname, unless kubeadm's --node-name put --hostname-override into "
                  "/var/lib/kubelet/kubeadm-flags.env.",
     .sources = "https://github.com/kubernetes/kubernetes/pull/64706 "
                "https://github.com/aquasecurity/kube-bench/blob/main/cfg/config.yaml"},
    {.id = "gpu-operator",
     .name = "NVIDIA GPU Operator",
     .layer = PlatformLayer::kAddOn,
     .markers = kGpuOperatorMarkers,
     .runtime_config = "/etc/containerd/conf.d/99-nvidia.toml /var/run/cdi",
     .toolkit = "/usr/local/nvidia/toolkit /usr/local/nvidia/toolkit/.config/nvidia-container-runtime/config.toml",
     .driver_root = "/run/nvidia/driver",
     .plugin = "daemonset",
     .plugin_logs = "/var/log/pods/*_nvidia-device-plugin-daemonset-*/nvidia-device-plugin",
     .other_logs = "/var/log/fabricmanager.log",
     .tool_dirs = "/run/nvidia/driver/usr/bin",
     .node_name = "unchanged. The plugin container is nvidia-device-plugin; config-manager (sidecar), "
                  "toolkit-validation and config-manager-init (init containers) and the nvidia-operator-validator "
                  "and nvidia-device-plugin-validator pods are context. nvidia-persistenced in the driver "
                  "container logs to the host's /dev/log, without a host unit.",
     .sources = "https://github.com/NVIDIA/gpu-operator/blob/a22dbf671f2e26f9a1e342f8eea28e196235e110/assets/state-device-plugin/0500_daemonset.yaml "
                "https://github.com/NVIDIA/gpu-operator/blob/a22dbf671f2e26f9a1e342f8eea28e196235e110/assets/state-driver/0500_daemonset.yaml "
                "https://github.com/NVIDIA/gpu-operator/blob/a22dbf671f2e26f9a1e342f8eea28e196235e110/controllers/object_controls.go "
                "https://github.com/NVIDIA/gpu-operator/blob/a22dbf671f2e26f9a1e342f8eea28e196235e110/validator/manifests/plugin-workload-validation.yaml "
                "https://github.com/NVIDIA/gpu-driver-container/blob/06a208ca9747c82b1ba99b76ecdcf2469b0a0207/ubuntu22.04/nvidia-driver"},
};

// "what the marker saw", or "" when it does not hold.
std::string MarkerHolds(const PlatformMarker& m, const HostFiles& host) {
  if (m.key.empty()) return host.Exists(std::string(m.path)) ? std::string(m.path) : "";
  auto text = host.Read(std::string(m.path), 64 * 1024);
  if (!text) return "";
  auto value = EnvFileValue(*text, m.key);
  if (!value || (m.value != "*" && *value != m.value)) return "";
  return std::string(m.path) + ": " + std::string(m.key) + "=" + *value;
}

}  // namespace

std::span<const PlatformRow> PlatformTable() { return kPlatforms; }

const PlatformRow* FindPlatform(std::string_view id) {
  for (const auto& row : kPlatforms) {
    if (row.id == id) return &row;
  }
  return nullptr;
}

std::vector<std::string_view> PlatformWords(std::string_view list) {
  std::vector<std::string_view> words;
  size_t start = 0;
  while ((start = list.find_first_not_of(' ', start)) != std::string_view::npos) {
    size_t end = list.find(' ', start);
    words.push_back(list.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    start = end;
  }
  return words;
}

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string> PlacesOf(const PlatformRow& row, PlatformFile file) {
  std::vector<std::string> places;
  auto words_ending = [&](std::string_view list, std::string_view suffix) {
    for (auto word : PlatformWords(list)) {
      if (EndsWith(word, suffix)) places.emplace_back(word);
    }
  };
  switch (file) {
    case PlatformFile::kNone:
      break;
    case PlatformFile::kKubeletConfig:
      for (auto word : PlatformWords(row.kubelet_config)) {
        if (!EndsWith(word, ".d")) places.emplace_back(word);
      }
      break;
    case PlatformFile::kContainerdConfig:
      words_ending(row.runtime_config, "/containerd/config.toml");
      break;
    case PlatformFile::kToolkitConfig:
      words_ending(row.toolkit, "/nvidia-container-runtime/config.toml");
      break;
    case PlatformFile::kFabricManagerLog:
      if (!row.driver_root.empty()) {
        places.push_back((row.driver_root == "/" ? "" : std::string(row.driver_root)) + "/var/log/fabricmanager.log");
      }
      break;
  }
  return places;
}

}  // namespace

std::string PlatformFileAlternatives(PlatformFile file) {
  std::vector<const PlatformRow*> rows = {FindPlatform("kubeadm")};
  for (const auto& row : kPlatforms) rows.push_back(&row);
  std::vector<std::string> places;
  for (const PlatformRow* row : rows) {
    for (auto& place : PlacesOf(*row, file)) {
      if (std::find(places.begin(), places.end(), place) == places.end()) places.push_back(std::move(place));
    }
  }
  std::string alternatives;
  for (const auto& place : places) alternatives += (alternatives.empty() ? "" : "|") + place;
  return alternatives;
}

std::string PlatformMatch::Ids() const {
  std::string ids = distribution ? std::string(distribution->id) : "";
  for (const PlatformRow* row : add_ons) ids += "+" + std::string(row->id);
  return ids;
}

PlatformMatch RecognizePlatform(const HostFiles& host) {
  PlatformMatch match;
  for (const auto& row : kPlatforms) {
    for (const auto& marker : row.markers) {
      std::string seen = MarkerHolds(marker, host);
      if (seen.empty()) continue;
      if (row.layer == PlatformLayer::kAddOn) {
        match.add_ons.push_back(&row);
      } else if (!match.distribution) {
        match.distribution = &row;
        match.evidence = seen;
      }
      break;
    }
  }
  if (!match.distribution) match.distribution = FindPlatform("kubeadm");
  return match;
}

std::vector<std::string> SystemdUnitDirs(const PlatformRow* platform) {
  std::vector<std::string> dirs = {"/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system",
                                   "/lib/systemd/system"};
  if (platform) {
    for (auto dir : PlatformWords(platform->unit_dirs)) dirs.emplace_back(dir);
  }
  return dirs;
}

std::vector<std::string> PlatformToolDirs(const PlatformRow* platform) {
  std::vector<std::string> dirs;
  if (platform) {
    for (auto dir : PlatformWords(platform->tool_dirs)) dirs.emplace_back(dir);
  }
  return dirs;
}

}  // namespace gpuf
