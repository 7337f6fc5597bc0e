#include "common/journal_slices.h"

#include "common/artifacts.h"
#include "common/platforms.h"

namespace gpuf {

namespace {

constexpr JournalSliceRow kJournalSlices[] = {
    {artifact::kJournalKernel, "", "_TRANSPORT=kernel", "kernel", ""},
    {artifact::kJournalSystemd, "", "_PID=1", "systemd", "init.scope"},
    // k3s and MicroK8s run the kubelet inside their own units.
    {artifact::kJournalKubelet, "kubelet.service k3s.service k3s-agent.service snap.microk8s.daemon-kubelite.service",
     "", "kubelet", "kubelet.service"},
    // The container runtime: containerd, or CRI-O where OpenShift runs.
    {artifact::kJournalContainerd, "containerd.service crio.service", "", "containerd", "containerd.service"},
    // The daemon by its identifier too: the GPU Operator runs it in the driver
    // container, whose lines carry the container's scope, not the unit.
    {artifact::kJournalNvidiaPersistenced, "nvidia-persistenced.service",
     "UNIT=nvidia-persistenced.service + SYSLOG_IDENTIFIER=nvidia-persistenced", "nvidia-persistenced",
     "nvidia-persistenced.service"},
    {artifact::kJournalNvidiaFabricmanager, "nvidia-fabricmanager.service", "", "nv-fabricmanager",
     "nvidia-fabricmanager.service"},
    {kPluginJournalSlice, "nvidia-k8s-device-plugin.service", "", "nvidia-device-plugin",
     "nvidia-k8s-device-plugin.service", true},
    // What journald did not store: without it, a line not found is not known to be absent.
    {artifact::kJournalJournald, "systemd-journald.service", "", "systemd-journald", "systemd-journald.service"},
};

struct IdentifierAlias {
  std::string_view identifier;
  std::string_view slice;
};

// Fabric Manager logs as nv-fabricmanager, but some packagings and syslog
// forwarders name it after its unit. k3s and MicroK8s log the kubelet's lines
// under their own names; CRI-O is the runtime where containerd is not.
constexpr IdentifierAlias kAliases[] = {
    {"nvidia-fabricmanager", artifact::kJournalNvidiaFabricmanager},
    {"nvidia-fabricmanager-start.sh", artifact::kJournalNvidiaFabricmanager},  // the unit's ExecStart wrapper (NVL5 era)
    {"crio", artifact::kJournalContainerd},
    {"k3s", artifact::kJournalKubelet},
    {"hyperkube", artifact::kJournalKubelet},  // OpenShift 3 and early kubeadm ran the kubelet as `hyperkube kubelet`
    {"origin-node", artifact::kJournalKubelet},            // OpenShift Origin 3.x: the kubelet inside the node service
    {"atomic-openshift-node", artifact::kJournalKubelet},  // OpenShift Container Platform 3.x, the same
    {"microk8s.daemon-kubelite", artifact::kJournalKubelet},
};

}  // namespace

std::span<const JournalSliceRow> JournalSliceTable() { return kJournalSlices; }

const JournalSliceRow* FindJournalSlice(std::string_view name) {
  for (const auto& row : kJournalSlices) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

const JournalSliceRow* JournalSliceForUnit(std::string_view unit) {
  for (const auto& row : kJournalSlices) {
    if (row.unit == unit) return &row;
    for (std::string_view one : PlatformWords(row.units)) {
      if (one == unit) return &row;
    }
  }
  return nullptr;
}

const JournalSliceRow* JournalSliceForIdentifier(std::string_view identifier) {
  for (const auto& row : kJournalSlices) {
    if (row.identifier == identifier) return &row;
  }
  for (const auto& alias : kAliases) {
    if (alias.identifier == identifier) return FindJournalSlice(alias.slice);
  }
  return nullptr;
}

}  // namespace gpuf
