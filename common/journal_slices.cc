#include "common/journal_slices.h"

#include "common/artifacts.h"
#include "common/platforms.h"

namespace gpuf {

namespace {

constexpr JournalSliceRow kJournalSlices[] = {
    {.name = artifact::kJournalKernel, .units = "", .matches = "_TRANSPORT=kernel", .identifier = "kernel", .unit = ""},
    {.name = artifact::kJournalSystemd, .units = "", .matches = "_PID=1", .identifier = "systemd",
     .unit = "init.scope"},
    // k3s and MicroK8s run the kubelet inside their own units.
    {.name = artifact::kJournalKubelet,
     .units = "kubelet.service k3s.service k3s-agent.service snap.microk8s.daemon-kubelite.service", .matches = "",
     .identifier = "kubelet", .unit = "kubelet.service"},
    // The container runtime: containerd, or CRI-O where OpenShift runs.
    {.name = artifact::kJournalContainerd, .units = "containerd.service crio.service", .matches = "",
     .identifier = "containerd", .unit = "containerd.service"},
    // The daemon by its identifier too: the GPU Operator runs it in the driver
    // container, whose lines carry the container's scope, not the unit.
    {.name = artifact::kJournalNvidiaPersistenced, .units = "nvidia-persistenced.service",
     .matches = "UNIT=nvidia-persistenced.service + SYSLOG_IDENTIFIER=nvidia-persistenced",
     .identifier = "nvidia-persistenced", .unit = "nvidia-persistenced.service"},
    {.name = artifact::kJournalNvidiaFabricmanager, .units = "nvidia-fabricmanager.service", .matches = "",
     .identifier = "nv-fabricmanager", .unit = "nvidia-fabricmanager.service"},
    {.name = kPluginJournalSlice, .units = "nvidia-k8s-device-plugin.service", .matches = "",
     .identifier = "nvidia-device-plugin", .unit = "nvidia-k8s-device-plugin.service", .only_where_installed = true},
    // What journald did not store: without it, a line not found is not known to be absent.
    {.name = artifact::kJournalJournald, .units = "systemd-journald.service", .matches = "",
     .identifier = "systemd-journald", .unit = "systemd-journald.service"},
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
