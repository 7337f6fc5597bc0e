// Classifies what one nvidia-smi run printed into why it failed, if it did.
//   Unable to determine the device handle for GPU0000:07:00.0: Unknown Error
// nvidia-smi prints its errors on stdout; a wrapper that could not start it
// (chroot, nsenter, runc via crictl exec) prints on stderr. The exit code is
// a second opinion (9 driver not loaded, 15 GPU lost, 127 command not found)
// used only when no known text is present, because its meaning for these
// errors is not documented consistently.
//
// Never fails: text nobody recognises is kOther with its first line kept.
#ifndef GPUF_FORMATS_NVIDIA_SMI_ERROR_H_
#define GPUF_FORMATS_NVIDIA_SMI_ERROR_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

enum class NvidiaSmiOutcome {
  kOk,                       // exit code 0 and no error text
  kNvmlUnknownError,         // "Failed to initialize NVML: Unknown Error" (in a container: device cgroup lost)
  kDriverNotLoaded,          // "... couldn't communicate with the NVIDIA driver ..."
  kNoDevices,                // "No devices were found"
  kVersionMismatch,          // "Failed to initialize NVML: Driver/library version mismatch"
  kInsufficientPermissions,  // "Failed to initialize NVML: Insufficient Permissions"
  kDeviceHandleError,        // some GPUs unreachable: see handle_errors
  kGpuLost,                  // a handle error saying "GPU is lost", or exit code 15
  kExecutableMissing,        // nvidia-smi itself could not be started: not an NVML failure
  kTimedOut,                 // the collector stopped it at its deadline (set by the loader, not from the text)
  kOther,
};

// One "Unable to determine the device handle for GPU..." line; other GPUs of
// the same run may still have printed normally.
struct DeviceHandleError {
  int line = 0;              // 1-based, in the stream it came from
  bool from_stderr = false;
  std::string pci_bus_id;    // sysfs form "0000:07:00.0"
  std::string reason;        // "Unknown Error", "GPU is lost.  Reboot the system to recover this GPU"
};

struct NvidiaSmiRun {
  NvidiaSmiOutcome outcome = NvidiaSmiOutcome::kOther;
  std::string message;  // the line that decided the outcome; empty for kOk
  std::optional<std::string> nvml_library_version;  // "570.124", printed after a version mismatch
  std::vector<DeviceHandleError> handle_errors;
  std::vector<ParseWarning> warnings;  // handle error lines without a readable PCI address
};

// exit_code is std::nullopt when the run did not exit (timed out, signalled);
// such a run is never kOk.
NvidiaSmiRun ClassifyNvidiaSmi(std::string_view stdout_text, std::string_view stderr_text,
                               std::optional<int> exit_code);

// "ok", "nvml_unknown_error", ..., "other": stable names for tables and reports.
const char* NvidiaSmiOutcomeName(NvidiaSmiOutcome outcome);

}  // namespace gpuf

#endif  // GPUF_FORMATS_NVIDIA_SMI_ERROR_H_
