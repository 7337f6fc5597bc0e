#include "formats/nvidia_smi_error.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

namespace {

// The fixtures are terminal transcripts: keep what the command printed, from
// the line after its prompt line up to the next prompt line (or the end).
std::string OutputAfter(const std::string& text, const std::string& prompt, const std::string& next_prompt = "") {
  size_t start = text.find(prompt + "\n");
  REQUIRE(start != std::string::npos);
  start += prompt.size() + 1;
  size_t end = next_prompt.empty() ? std::string::npos : text.find(next_prompt + "\n", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string Fixture(const std::string& name) { return test::Fixture("formats/" + name); }

}  // namespace

TEST_SUITE("nvidia_smi_error") {

TEST_CASE("ClassifyNvidiaSmi: driver not loaded, on the host and in a container without the runtime") {
  std::string message =
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.";
  SUBCASE("host") {
    std::string out = OutputAfter(Fixture("nvidia-smi-err_failed-communicate_bigdata-108.txt"), "$ nvidia-smi");
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 9);
    CHECK(run.outcome == NvidiaSmiOutcome::kDriverNotLoaded);
    CHECK(run.message == message);
    CHECK(run.handle_errors.empty());
    CHECK(run.warnings.empty());
  }
  SUBCASE("container") {
    std::string out = OutputAfter(Fixture("nvidia-smi-err_failed-communicate_manylinux-cuda-5.txt"),
                                  "[root@24c96d985c30 /]# nvidia-smi");
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 9);
    CHECK(run.outcome == NvidiaSmiOutcome::kDriverNotLoaded);
    CHECK(run.message == message);
    CHECK(run.warnings.empty());
  }
}

TEST_CASE("ClassifyNvidiaSmi: no devices were found") {
  std::string out = OutputAfter(Fixture("nvidia-smi-err_no-devices-found_plus-NVRM_open-gpu-kernel-modules-862.txt"),
                                "# nvidia-smi", "# meanwhile, output in /var/log/syslog");
  CHECK(out == "No devices were found\n\n");
  NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 6);
  CHECK(run.outcome == NvidiaSmiOutcome::kNoDevices);
  CHECK(run.message == "No devices were found");
  CHECK(run.warnings.empty());
}

TEST_CASE("ClassifyNvidiaSmi: driver/library version mismatch keeps the NVML library version") {
  SUBCASE("550") {
    std::string out = OutputAfter(Fixture("nvidia-smi-err_nvml-version-mismatch_intel-llvm-17614.txt"),
                                  "**********CUDA Version**********");
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 18);
    CHECK(run.outcome == NvidiaSmiOutcome::kVersionMismatch);
    CHECK(run.message == "Failed to initialize NVML: Driver/library version mismatch");
    CHECK(run.nvml_library_version == "550.144");
    CHECK(run.warnings.empty());
  }
  SUBCASE("570") {
    std::string out = OutputAfter(Fixture("nvidia-smi-err_nvml-version-mismatch_tinygrad-47.txt"), "nvidia-smi ");
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 18);
    CHECK(run.outcome == NvidiaSmiOutcome::kVersionMismatch);
    CHECK(run.nvml_library_version == "570.124");
  }
  SUBCASE("580, next to the loaded module's /proc version") {
    std::string out = OutputAfter(Fixture("proc-driver-nvidia-version_proprietary-vs-nvml-mismatch_truenas-19.txt"),
                                  "root@truenas[/]# nvidia-smi", "root@truenas[/]# cat /proc/driver/nvidia/version");
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", std::nullopt);
    CHECK(run.outcome == NvidiaSmiOutcome::kVersionMismatch);
    CHECK(run.nvml_library_version == "580.178");
  }
  SUBCASE("older drivers print no second line") {
    NvidiaSmiRun run = ClassifyNvidiaSmi("Failed to initialize NVML: Driver/library version mismatch\n", "", 18);
    CHECK(run.outcome == NvidiaSmiOutcome::kVersionMismatch);
    CHECK_FALSE(run.nvml_library_version.has_value());
  }
}

TEST_CASE("ClassifyNvidiaSmi: NVML init failures by their text") {
  // Texts from research/formats.md 1.4 and tests/collect_fakehost_test.cc.
  NvidiaSmiRun unknown = ClassifyNvidiaSmi("Failed to initialize NVML: Unknown Error\n", "", 255);
  CHECK(unknown.outcome == NvidiaSmiOutcome::kNvmlUnknownError);
  CHECK(unknown.message == "Failed to initialize NVML: Unknown Error");
  NvidiaSmiRun permissions = ClassifyNvidiaSmi("Failed to initialize NVML: Insufficient Permissions\n", "", 4);
  CHECK(permissions.outcome == NvidiaSmiOutcome::kInsufficientPermissions);
  NvidiaSmiRun not_loaded = ClassifyNvidiaSmi("Failed to initialize NVML: Driver Not Loaded\n", "", 9);
  CHECK(not_loaded.outcome == NvidiaSmiOutcome::kDriverNotLoaded);
  NvidiaSmiRun other =
      ClassifyNvidiaSmi("Failed to initialize NVML: GPU access blocked by the operating system\n", "", 255);
  CHECK(other.outcome == NvidiaSmiOutcome::kOther);
  CHECK(other.message == "Failed to initialize NVML: GPU access blocked by the operating system");
}

TEST_CASE("ClassifyNvidiaSmi: device handle errors in both spacings capture the GPU and the reason") {
  struct Case {
    std::string file, prompt, pci;
  };
  Case cases[] = {
      {"nvidia-smi-err_device-handle-unknown-error_with-space_nvidia-docker-1553.txt", "", "0000:09:00.0"},
      {"nvidia-smi-err_device-handle-unknown-error_no-space_syno-22.txt", "$ nvidia-smi", "0000:07:00.0"},
      {"nvidia-smi-err_device-handle-unknown-error_container_nct-69.txt", "", "0000:65:00.0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    std::string text = Fixture(c.file);
    std::string out = c.prompt.empty() ? text : OutputAfter(text, c.prompt);
    NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 255);
    CHECK(run.outcome == NvidiaSmiOutcome::kDeviceHandleError);
    REQUIRE(run.handle_errors.size() == 1);
    CHECK(run.handle_errors[0].line == 1);
    CHECK(run.handle_errors[0].pci_bus_id == c.pci);
    CHECK(run.handle_errors[0].reason == "Unknown Error");
    CHECK(run.message == out.substr(0, out.find('\n')));
    CHECK(run.warnings.empty());
  }
}

TEST_CASE("ClassifyNvidiaSmi: a lost GPU") {
  NvidiaSmiRun run = ClassifyNvidiaSmi(Fixture("nvidia-smi-err_device-handle-gpu-is-lost_owod-81.txt"), "", 15);
  CHECK(run.outcome == NvidiaSmiOutcome::kGpuLost);
  CHECK(run.message ==
        "Unable to determine the device handle for GPU 0000:02:00.0: "
        "GPU is lost. Reboot the system to recover this GPU");
  REQUIRE(run.handle_errors.size() == 1);
  CHECK(run.handle_errors[0].pci_bus_id == "0000:02:00.0");
  CHECK(run.handle_errors[0].reason == "GPU is lost. Reboot the system to recover this GPU");
  CHECK(run.warnings.empty());
}

TEST_CASE("ClassifyNvidiaSmi: some GPUs listed, some failing") {
  std::string out = Fixture("nvidia-smi-L_plain-2xA10_cloud-native-docs.txt") +
                    "Unable to determine the device handle for GPU00000000:3B:00.0: Unknown Error\n"
                    "Unable to determine the device handle for GPU1: 0000:86:00.0: GPU is lost.  "
                    "Reboot the system to recover this GPU\n";
  NvidiaSmiRun run = ClassifyNvidiaSmi(out, "", 15);
  CHECK(run.outcome == NvidiaSmiOutcome::kGpuLost);
  REQUIRE(run.handle_errors.size() == 2);
  CHECK(run.handle_errors[0].line == 3);
  CHECK(run.handle_errors[0].pci_bus_id == "0000:3b:00.0");
  CHECK(run.handle_errors[1].line == 4);
  CHECK(run.handle_errors[1].pci_bus_id == "0000:86:00.0");
  CHECK(run.handle_errors[1].reason == "GPU is lost.  Reboot the system to recover this GPU");
  CHECK(run.warnings.empty());
}

TEST_CASE("ClassifyNvidiaSmi: nvidia-smi missing is not an NVML failure") {
  SUBCASE("crictl exec into a container without it") {
    NvidiaSmiRun run = ClassifyNvidiaSmi(
        "",
        "time=\"2025-01-20T01:36:56Z\" level=fatal msg=\"execing command in container: rpc error: code = Unknown "
        "desc = failed to exec in container: failed to start exec \\\"5f1c\\\": OCI runtime exec failed: exec failed: "
        "unable to start container process: exec: \\\"nvidia-smi\\\": executable file not found in $PATH: unknown\"\n",
        1);
    CHECK(run.outcome == NvidiaSmiOutcome::kExecutableMissing);
  }
  SUBCASE("chroot into a host without it") {
    NvidiaSmiRun run =
        ClassifyNvidiaSmi("", "chroot: failed to run command 'nvidia-smi': No such file or directory\n", 127);
    CHECK(run.outcome == NvidiaSmiOutcome::kExecutableMissing);
    CHECK(run.message == "chroot: failed to run command 'nvidia-smi': No such file or directory");
  }
  SUBCASE("a missing library is something else") {
    NvidiaSmiRun run = ClassifyNvidiaSmi(
        "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display "
        "Driver is properly installed and present in your system.\n",
        "", 12);
    CHECK(run.outcome == NvidiaSmiOutcome::kOther);
    CHECK(run.message.rfind("NVIDIA-SMI couldn't find libnvidia-ml.so", 0) == 0);
  }
}

TEST_CASE("ClassifyNvidiaSmi: a normal table is ok, and with rc 14 ok with the infoROM warning kept") {
  std::string table = Fixture("nvidia-smi-table_470-infoROM-corrupted-rc14_cloud-native-docs.txt");
  table.erase(table.rfind("14\n"));  // the transcript echoed the exit code
  NvidiaSmiRun warned = ClassifyNvidiaSmi(table, "", 14);
  CHECK(warned.outcome == NvidiaSmiOutcome::kOk);  // the GPU answers; only its infoROM is damaged
  CHECK(warned.message == "WARNING: infoROM is corrupted at gpu 0000:0B:00.0");
  CHECK(warned.warnings.empty());
  CHECK(ClassifyNvidiaSmi("Failed to initialize NVML: Unknown Error\n", "", 14).outcome ==
        NvidiaSmiOutcome::kNvmlUnknownError);
  NvidiaSmiRun ok = ClassifyNvidiaSmi(Fixture("nvidia-smi-table_580-fmt-T4_karpenter-blueprints.txt"), "", 0);
  CHECK(ok.outcome == NvidiaSmiOutcome::kOk);
  CHECK(ok.message == "");
}

TEST_CASE("ClassifyNvidiaSmi: the exit code decides only when no text is known") {
  CHECK(ClassifyNvidiaSmi("", "", 9).outcome == NvidiaSmiOutcome::kDriverNotLoaded);
  CHECK(ClassifyNvidiaSmi("", "", 15).outcome == NvidiaSmiOutcome::kGpuLost);
  CHECK(ClassifyNvidiaSmi("", "", 127).outcome == NvidiaSmiOutcome::kExecutableMissing);
  CHECK(ClassifyNvidiaSmi("", "", 2).outcome == NvidiaSmiOutcome::kOther);
  NvidiaSmiRun timed_out = ClassifyNvidiaSmi("GPU 0: NVIDIA A10 (UUID: GPU-0f2a)\n", "", std::nullopt);
  CHECK(timed_out.outcome == NvidiaSmiOutcome::kOther);
  CHECK(timed_out.message == "GPU 0: NVIDIA A10 (UUID: GPU-0f2a)");
  CHECK(ClassifyNvidiaSmi("No devices were found\n", "", 0).outcome == NvidiaSmiOutcome::kNoDevices);
}

TEST_CASE("ClassifyNvidiaSmi: handle error spellings") {
  NvidiaSmiRun run = ClassifyNvidiaSmi(
      "Unable to determine the device handle for gpu 0000:3B:00.0: Unknown Error\n"
      "Unable to determine the device handle for GPU12: 00000001:C1:1f.7:   GPU requires reset  \n",
      "", 255);
  CHECK(run.outcome == NvidiaSmiOutcome::kDeviceHandleError);
  REQUIRE(run.handle_errors.size() == 2);
  CHECK(run.handle_errors[0].pci_bus_id == "0000:3b:00.0");
  CHECK(run.handle_errors[1].pci_bus_id == "0001:c1:1f.7");
  CHECK(run.handle_errors[1].reason == "GPU requires reset");
  CHECK(run.warnings.empty());
}

TEST_CASE("ClassifyNvidiaSmi: a handle error without an address is a warning") {
  NvidiaSmiRun run = ClassifyNvidiaSmi("Unable to determine the device handle for GPU: Unknown Error\n", "", 255);
  CHECK(run.outcome == NvidiaSmiOutcome::kDeviceHandleError);
  CHECK(run.handle_errors.empty());
  REQUIRE(run.warnings.size() == 1);
  CHECK(run.warnings[0].line == 1);
  CHECK(run.warnings[0].message ==
        "device handle error without a PCI address: Unable to determine the device handle for GPU: Unknown Error");
}

TEST_CASE("ClassifyNvidiaSmi: a handle error line cut after the GPU number is a warning") {
  NvidiaSmiRun run = ClassifyNvidiaSmi("Unable to determine the device handle for GPU123", "", std::nullopt);
  CHECK(run.outcome == NvidiaSmiOutcome::kDeviceHandleError);
  CHECK(run.handle_errors.empty());
  CHECK(run.warnings.size() == 1);
}

TEST_CASE("ClassifyNvidiaSmi: a handle error with a cut address is a warning") {
  NvidiaSmiRun run =
      ClassifyNvidiaSmi("Unable to determine the device handle for GPU 0000:02:00: GPU is lost\n", "", 15);
  CHECK(run.outcome == NvidiaSmiOutcome::kGpuLost);
  CHECK(run.handle_errors.empty());
  REQUIRE(run.warnings.size() == 1);
  CHECK(run.warnings[0].message ==
        "device handle error without a PCI address: "
        "Unable to determine the device handle for GPU 0000:02:00: GPU is lost");
}

TEST_CASE("NvidiaSmiOutcomeName: stable names") {
  CHECK(std::string(NvidiaSmiOutcomeName(NvidiaSmiOutcome::kOk)) == "ok");
  CHECK(std::string(NvidiaSmiOutcomeName(NvidiaSmiOutcome::kDeviceHandleError)) == "device_handle_error");
  CHECK(std::string(NvidiaSmiOutcomeName(NvidiaSmiOutcome::kExecutableMissing)) == "executable_missing");
}

}  // TEST_SUITE

}  // namespace gpuf
