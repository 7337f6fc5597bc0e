#include "common/event_kinds.h"

#include <algorithm>

namespace gpuf {

namespace {

// Fields: `bus` is a PCI address as the line prints it (0000:3b:00 or
// 0000:3b:00.0), `device` the device plugin's ID of a device (a GPU's or a
// MIG device's UUID), `uuid` a GPU's UUID: the engine knows them all as GPU
// names (analyzer/rules/subject_keys.h). `reason` and `scope` are words an
// entry sets, so that a rule can ask for one cause among a kind's wordings
// (nvml_init_failed reason=lib_mismatch). `error` and `why` are the
// component's own words for what went wrong, as the line prints them.
constexpr EventKindRow kEventKinds[] = {
    {.name = "allocation_refused",
     .fields = "why reason",
     .description = "the kubelet refused a pod's device allocation at admission (UnexpectedAdmissionError): why, the "
                    "plugin's or its own words"},
    {.name = "capacity_zeroed",
     .fields = "resource",
     .description =
         "the kubelet, starting, zeroed the capacity of a device-plugin resource until its plugin registers again"},
    {.name = "cpuset_updated",
     .fields = "container_name",
     .description = "the kubelet's CPU manager updated a running container's cpuset, which rewrites its cgroup through "
                    "the runtime"},
    {.name = "cuda_system_not_ready",
     .fields = "",
     .description =
         "CUDA refused to run: the system is not yet initialised (error 802; on NVSwitch systems, no fabric manager)"},
    {.name = "daemon_reload",
     .fields = "",
     .description = "systemd reloaded its units (systemctl daemon-reload), re-applying every unit's cgroup settings",
     .journal_events = "daemon_reload daemon_reload_requested daemon_reloading"},
    {.name = "device_checkpoint_unreadable",
     .fields = "",
     .description = "the kubelet's device manager could not read its checkpoint (kubelet_internal_checkpoint) and "
                    "starts without it"},
    {.name = "driver_api_mismatch",
     .fields = "client module",
     .description = "the kernel module refused a user-space NVIDIA library of another version"},
    {.name = "fm_version_mismatch",
     .fields = "fm driver",
     .description = "the fabric manager refused to start: its version differs from the driver's",
     .undone_by = UndoneBy::kUnitStartedAgain,
     .unit = "nvidia-fabricmanager.service"},
    {.name = "gpu_fallen_off_bus",
     .fields = "bus",
     .description = "the driver lost a GPU: it no longer answers on the PCI bus",
     .undone_by = UndoneBy::kGpuListed},
    {.name = "gpu_init_failed",
     .fields = "bus minor code",
     .description = "the driver could not initialise a GPU (RmInitAdapter), which then is not usable",
     .undone_by = UndoneBy::kGpuListed},
    {.name = "gpu_listed",
     .fields = "index name uuid",
     .description = "NVML listed a GPU where it ran (nvidia-smi -L): NVML worked there at that moment"},
    {.name = "gpu_named",
     .fields = "bus uuid",
     .description = "the driver named a GPU it initialised: its PCI address and UUID"},
    {.name = "gpu_reset_refused",
     .fields = "bus",
     .description = "a GPU reset was refused (a hypervisor that does not allow it, a GPU in use): what it waits for stays"},
    {.name = "gpu_unhealthy",
     .fields = "device resource code scope error",
     .description = "the device plugin marked a device (scope=all: every device) unhealthy; code: the Xid behind it"},
    {.name = "gsp_timeout",
     .fields = "",
     .description = "the GPU System Processor did not answer the driver in time (the detail lines of an Xid 119)"},
    {.name = "health_checks_disabled",
     .fields = "error",
     .description = "the device plugin could not start its health checks and serves its devices without them"},
    {.name = "kubelet_socket_recreated",
     .fields = "",
     .description = "the device plugin saw kubelet.sock created again (the kubelet restarted) and restarts its plugins",
     .undone_by = UndoneBy::kLaterRegistration},
    {.name = "list_and_watch_ended",
     .fields = "resource",
     .description = "the kubelet's ListAndWatch stream with a device plugin ended: the plugin stopped or restarted",
     .journal_events = "list_and_watch_ended"},
    {.name = "mig_config_invalid",
     .fields = "error",
     .description = "the device plugin refused the node's MIG configuration for its MIG strategy"},
    {.name = "mig_mode_pending",
     .fields = "bus why",
     .description = "a GPU's MIG mode was changed but takes effect only after a GPU reset or a reboot"},
    {.name = "nvml_call_denied",
     .fields = "call",
     .description = "NVML refused a call on a GPU or MIG device (Insufficient Permissions) after initialising: "
                    "the caller cannot reach the device or capability nodes it needs"},
    {.name = "nvml_init_failed",
     .fields = "reason error",
     .description = "NVML could not be initialised, as nvidia-smi, the device plugin or the toolkit's hook says",
     .undone_by = UndoneBy::kLaterRegistration},
    {.name = "plugin_no_devices",
     .fields = "reason",
     .description = "the device plugin found no device to advertise (reason=incompatible_platform: it found "
                    "neither NVML nor a Tegra system) and waits (reason=waiting: its 'No devices found' line)",
     .undone_by = UndoneBy::kLaterRegistration},
    {.name = "plugin_registered",
     .fields = "resource",
     .description = "the device plugin registered a resource with the kubelet over kubelet.sock"},
    {.name = "plugin_start_failed",
     .fields = "error reason",
     .description = "the device plugin gave up starting its plugins and exits (it is restarted)",
     .undone_by = UndoneBy::kLaterRegistration},
    {.name = "registration_received",
     .fields = "resource",
     .description = "the kubelet received a device plugin's registration request over kubelet.sock",
     .journal_events = "registration_request"},
    {.name = "runtime_handler_missing",
     .fields = "handler",
     .description = "the container runtime has no runtime handler of that name (a RuntimeClass names one it lacks)"},
    {.name = "unit_failed",
     .fields = "unit",
     .description = "systemd marked a unit failed (its process exited with an error, or it did not start)",
     .undone_by = UndoneBy::kUnitStartedAgain,
     .journal_events = "unit_failed"},
    {.name = "unit_started",
     .fields = "unit",
     .description = "systemd started a unit (its process runs; a Type=notify unit said it is ready)",
     .journal_events = "unit_started"},
    {.name = "xid",
     .fields = "bus code detail",
     .description = "the kernel module reported an Xid error of a GPU: its code and the driver's words after it",
     // Xid 79 is the GPU falling off the bus; the others leave it listed.
     .undone_by = UndoneBy::kGpuListed,
     .undone_only_if_field = "code",
     .undone_only_if_value = "79"},
};

}  // namespace

std::span<const EventKindRow> EventKinds() { return kEventKinds; }

const EventKindRow* FindEventKind(std::string_view name) {
  for (const auto& row : kEventKinds) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::vector<std::string_view> ListWords(std::string_view list) {
  std::vector<std::string_view> words;
  while (!list.empty()) {
    size_t space = list.find(' ');
    if (space != 0) words.push_back(list.substr(0, space));
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return words;
}

std::string_view FirstField(const EventKindRow& kind) {
  std::vector<std::string_view> fields = ListWords(kind.fields);
  return fields.empty() ? std::string_view() : fields.front();
}

bool KindHasField(const EventKindRow& kind, std::string_view field) {
  std::vector<std::string_view> fields = ListWords(kind.fields);
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

}  // namespace gpuf
