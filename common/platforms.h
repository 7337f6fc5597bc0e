// The node platforms gpuforensics knows (docs/platforms.md): for each, how
// to recognise it from the host's files and where its kubelet, container
// runtime, NVIDIA toolkit, driver, device plugin, logs and tools live, with
// the public source each row was taken from. One table serves the
// collector (where to look), the importer and the documentation.
//
// A node is one distribution row (ACK, EKS, Bottlerocket, GKE, OpenShift,
// k3s, RKE2, or plain kubeadm) plus any add-on rows that also match (the
// NVIDIA GPU Operator runs on several of them). List fields hold host paths
// or names separated by spaces; PlatformWords splits them.
#ifndef GPUF_COMMON_PLATFORMS_H_
#define GPUF_COMMON_PLATFORMS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/host_files.h"

namespace gpuf {

// One fact on the host that identifies a platform: `path` exists, or, with a
// key, the env-style file at `path` sets `key` to `value` ("*": to anything).
struct PlatformMarker {
  std::string_view path;
  std::string_view key = {};
  std::string_view value = {};
};

enum class PlatformLayer { kDistribution, kAddOn };

struct PlatformRow {
  std::string_view id = {};    // "ack", "eks-al2023", "bottlerocket", "gke-cos", "openshift", "k3s", "rke2", "kubeadm", "gpu-operator"
  std::string_view name = {};  // for people: "Alibaba Cloud ACK"
  PlatformLayer layer = PlatformLayer::kDistribution;
  std::span<const PlatformMarker> markers = {};  // any one of them recognises the platform
  // kubelet
  std::string_view kubelet_units = {};       // units that run the kubelet
  std::string_view kubelet_flag_files = {};  // unit drop-in directories and environment files with its flags
  std::string_view kubelet_config = {};      // KubeletConfiguration files (never kubeconfigs)
  std::string_view kubeconfig = {};          // the kubelet's kubeconfig (holds credentials: only its existence is checked)
  std::string_view static_pod_dirs = {};
  std::string_view kubelet_log = {};         // "journal", or the file it writes
  // container runtime
  std::string_view runtime = {};             // "containerd" | "cri-o"
  std::string_view runtime_socket = {};
  std::string_view runtime_config = {};      // the runtime's and crictl's configuration files
  // NVIDIA stack
  std::string_view toolkit = {};             // nvidia-container-runtime and its config.toml
  std::string_view driver_root = {};         // "/" or the driver container's root
  std::string_view plugin = {};              // how the device plugin runs: "daemonset", "static-pod", "host-unit"
  std::string_view plugin_logs = {};         // where its log is
  std::string_view other_logs = {};          // log files beyond the journal and /var/log/pods
  std::string_view tool_dirs = {};           // crictl, kubectl, nvidia-smi, ... off the standard PATH
  std::string_view unit_dirs = {};           // systemd unit directories beyond /etc, /run, /usr/lib and /lib
  std::string_view node_name = {};           // how the Node is named, and how that differs from the hostname
  std::string_view sources = {};             // public documents the row was taken from
};

std::span<const PlatformRow> PlatformTable();

// The row with `id`, or nullptr.
const PlatformRow* FindPlatform(std::string_view id);

// "a b  c" -> {"a", "b", "c"}.
std::vector<std::string_view> PlatformWords(std::string_view list);

// A file each platform keeps in a place of its own; the collector reads
// the first present of them (collector/probe_table.cc).
enum class PlatformFile {
  kNone,
  kKubeletConfig,     // the KubeletConfiguration, from kubelet_config (not its drop-in directories)
  kContainerdConfig,  // containerd's config.toml, from runtime_config
  kToolkitConfig,     // nvidia-container-runtime's config.toml, from toolkit
  kFabricManagerLog,  // the fabric manager's own log under each driver_root
};

// "a|b|c": where the platforms keep `file`, each place once: the fallback
// platform's (kubeadm, reported missing when none is present) first, then
// the table's order. "" for kNone.
std::string PlatformFileAlternatives(PlatformFile file);

// Where systemd looks for units, in precedence order, then the platform's
// own (Bottlerocket's sys-root); `platform` may be null.
std::vector<std::string> SystemdUnitDirs(const PlatformRow* platform);

// The platform's tool directories off the standard PATH; none for null.
std::vector<std::string> PlatformToolDirs(const PlatformRow* platform);

struct PlatformMatch {
  const PlatformRow* distribution = nullptr;  // the first distribution whose marker holds; kubeadm as the fallback
  std::string evidence;                       // the marker that held ("/etc/os-release: ID=bottlerocket"), "" for the fallback
  std::vector<const PlatformRow*> add_ons;    // every add-on whose marker holds

  // "bottlerocket", "openshift+gpu-operator".
  std::string Ids() const;
};

// Pure: reads only the marker files, through `host`.
PlatformMatch RecognizePlatform(const HostFiles& host);

}  // namespace gpuf

#endif  // GPUF_COMMON_PLATFORMS_H_
