#include "chain/plugin_since_start.h"

#include <doctest/doctest.h>

#include "formats/plugin_wording.h"

namespace gpuf {

TEST_SUITE("plugin_since_start") {

TEST_CASE("ClassifyPluginChainLine: every version's wording, behind any header") {
  CHECK(ClassifyPluginChainLine("I1118 03:20:17.306000 1 server.go:146] Registered device plugin for "
                                "'nvidia.com/gpu' with Kubelet").event == PluginChainEvent::kRegistered);
  CHECK(ClassifyPluginChainLine("2020/01/02 03:04:05 Registered device plugin with Kubelet").event ==
        PluginChainEvent::kRegistered);
  CHECK(ClassifyPluginChainLine("Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock")
            .event == PluginChainEvent::kServing);
  auto failed = ClassifyPluginChainLine("2025/11/18 03:18:17 Failed to initialize NVML: nvml: Unknown Error.");
  CHECK(failed.event == PluginChainEvent::kNvmlInitFailed);
  CHECK(failed.message == "Failed to initialize NVML: nvml: Unknown Error.");
  CHECK(ClassifyPluginChainLine("E0101 00:00:00.000000 1 main.go:1] nvml init failed: ERROR_LIBRARY_NOT_FOUND").event ==
        PluginChainEvent::kNvmlInitFailed);
  CHECK(ClassifyPluginChainLine("Loading NVML").event == PluginChainEvent::kNone);
}

TEST_CASE("ReadPluginSinceStart: the run that started last, in this boot") {
  // Attempt 0 registered in the boot before (before btime 1763435000 s);
  // attempt 1 of this boot failed NVML; attempt 2 registered.
  std::string before = "2025-11-17T10:00:00Z stderr F Registered device plugin for 'nvidia.com/gpu' with Kubelet\n";
  std::string failed = "2025-11-18T03:10:00Z stderr F Failed to initialize NVML: nvml: Unknown Error.\n";
  std::string current = "2025-11-18T03:20:17Z stderr F Starting to serve 'nvidia.com/gpu' on /x.sock\n"
                        "2025-11-18T03:20:18Z stderr F Registered device plugin for 'nvidia.com/gpu' with Kubelet\n";
  const int64_t btime = 1763435000LL * 1000000000LL;
  using F = PluginLogSource::Format;
  auto plugin = ReadPluginSinceStart({{F::kContainerLog, current}, {F::kContainerLog, before},
                                      {F::kContainerLog, failed}}, btime);
  CHECK(plugin.logged);
  CHECK_FALSE(plugin.nvml_failure);
  CHECK(plugin.healthy_signs == 2);
  CHECK(plugin.registered_ns == 1763436018LL * 1000000000LL);

  auto only_failed = ReadPluginSinceStart({{F::kContainerLog, before}, {F::kContainerLog, failed}}, btime);
  CHECK(only_failed.nvml_failure == "Failed to initialize NVML: nvml: Unknown Error.");
  CHECK_FALSE(only_failed.registered_ns);

  auto earlier_boot_only = ReadPluginSinceStart({{F::kContainerLog, before}}, btime);
  CHECK_FALSE(earlier_boot_only.logged);
}

TEST_CASE("ReadPluginSinceStart: a host service's runs begin at PID 1's Started line") {
  std::string journal =
      R"({"__REALTIME_TIMESTAMP":"1763436000000000","_PID":"1","MESSAGE":"Started nvidia-k8s-device-plugin.service."})"
      "\n"
      R"({"__REALTIME_TIMESTAMP":"1763436001000000","_PID":"1667","MESSAGE":"I1118 03:20:01.000000 1667 server.go:154] Registered device plugin for 'nvidia.com/gpu' with Kubelet"})"
      "\n"
      R"({"__REALTIME_TIMESTAMP":"1763436100000000","_PID":"1","MESSAGE":"Started nvidia-k8s-device-plugin.service."})"
      "\n"
      R"({"__REALTIME_TIMESTAMP":"1763436101000000","_PID":"1702","MESSAGE":"Failed to initialize NVML: ERROR_UNKNOWN"})"
      "\n";
  auto plugin = ReadPluginSinceStart({{PluginLogSource::Format::kJournalJson, journal}}, 0);
  CHECK(plugin.logged);
  CHECK(plugin.nvml_failure == "Failed to initialize NVML: ERROR_UNKNOWN");
  CHECK_FALSE(plugin.registered_ns);
}

}  // TEST_SUITE

}  // namespace gpuf
