#include "formats/plugin_log.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include "common/text_lines.h"
#include "formats/message_catalogue.h"
#include "formats/plugin_wording.h"
#include "tests/fixtures.h"

namespace gpuf {

namespace {

using K = PluginEventKind;

// Strips a syslog-style journal prefix, then a klog or Go log header; the
// loader does this with the cri_log and klog parsers.
std::string StripHeaders(std::string_view line) {
  static const RE2 headers(
      R"((?:\w{3} [ \d]\d \d\d:\d\d:\d\d \S+ [^:\s]+: )?)"
      R"((?:[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\]\s]+\] ?|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d{6})? ?)?)"
      R"((.*))");
  std::string message;
  RE2::FullMatch(re2::StringPiece(line.data(), line.size()), headers, &message);
  return message;
}

std::vector<PluginEvent> ClassifyFixture(const char* name) {
  std::vector<PluginEvent> events;
  std::string text = test::Fixture(name);
  ForEachLine(text, [&](int, std::string_view line) {
    events.push_back(ClassifyPluginMessage(StripHeaders(line)));
  });
  return events;
}

std::vector<LogMessage> Messages(const std::vector<std::string>& lines) {
  std::vector<LogMessage> out;
  for (size_t i = 0; i < lines.size(); ++i) out.push_back({static_cast<int>(i) + 1, lines[i]});
  return out;
}

}  // namespace

TEST_SUITE("plugin_log") {

TEST_CASE("ClassifyPluginMessage: a v0.9 start in Go log format") {
  auto e = ClassifyFixture("formats/device-plugin_golog-old-format_mig-k8s_cloud-native-docs.txt");
  REQUIRE(e.size() == 7);
  CHECK(e[0].kind == K::kLoadingNvml);
  CHECK(e[1].kind == K::kFsWatcherStarted);
  CHECK(e[1].path.empty());
  CHECK(e[2].kind == K::kOsWatcherStarted);
  CHECK(e[3].kind == K::kRetrievingPlugins);
  CHECK(e[3].version_hint == "<=v0.14");
  CHECK(e[4].kind == K::kGrpcServerStarting);
  CHECK(e[4].resource == "nvidia.com/gpu");
  CHECK(e[5].kind == K::kServing);
  CHECK(e[5].resource == "nvidia.com/gpu");
  CHECK(e[5].path == "/var/lib/kubelet/device-plugins/nvidia-gpu.sock");
  CHECK(e[6].kind == K::kRegistered);
  CHECK(e[6].resource == "nvidia.com/gpu");
}

TEST_CASE("ClassifyPluginMessage: platform detection lines of v0.13-v0.15") {
  auto e = ClassifyFixture("formats/device-plugin_golog-old-format_device-edge_cloud-native-docs.txt");
  REQUIRE(e.size() == 7);
  CHECK(e[0].kind == K::kUnknown);  // "[...]" elision in the source
  CHECK(e[1].kind == K::kRetrievingPlugins);
  CHECK(e[2].kind == K::kPlatformDetected);
  CHECK(e[2].detail == "NVML platform: found NVML library");
  CHECK(e[3].kind == K::kPlatformDetected);
  CHECK(e[3].detail == "non-Tegra platform: /sys/devices/soc0/family file not found");
  CHECK(e[6].kind == K::kRegistered);
}

TEST_CASE("ClassifyPluginMessage: v0.17's platform line names no kind of platform") {
  // tests/corpus/k8s-device-plugin-1963-jetson-thor-platform-unknown-v0.19
  PluginEvent e = ClassifyPluginMessage("Detected platform: unknown");
  CHECK(e.kind == K::kPlatformDetected);
  CHECK(e.detail == "platform: unknown");
}

TEST_CASE("ClassifyPluginMessage: registration refused by an old kubelet") {
  auto e = ClassifyFixture("formats/device-plugin_golog-registration-failed_k8s-device-plugin-109.txt");
  REQUIRE(e.size() == 5);
  CHECK(e[0].kind == K::kServing);
  CHECK(e[0].resource.empty());
  CHECK(e[0].path == "/var/lib/kubelet/device-plugins/nvidia.sock");
  CHECK(e[1].kind == K::kRegistrationFailed);
  CHECK(e[1].error == "rpc error: code = Unimplemented desc = unknown service v1beta1.Registration");
  CHECK(e[2].kind == K::kKubeletUnreachable);
  CHECK(e[3].kind == K::kAdvice);
  CHECK(e[4].kind == K::kAdvice);
}

TEST_CASE("ClassifyPluginMessage: the plugin reacts to a kubelet restart") {
  auto e = ClassifyFixture(
      "formats/device-plugin_journald-klog_kubelet-sock-restart_bottlerocket-4250.txt");
  REQUIRE(e.size() == 8);
  CHECK(e[0].kind == K::kGrpcServerStarting);
  CHECK(e[1].kind == K::kServing);
  CHECK(e[2].kind == K::kRegistered);
  CHECK(e[3].kind == K::kKubeletSocketCreated);
  CHECK(e[3].path == "/var/lib/kubelet/device-plugins/kubelet.sock");
  CHECK(e[4].kind == K::kStoppingPlugins);
  CHECK(e[5].kind == K::kStoppedServing);
  CHECK(e[5].resource == "nvidia.com/gpu");
  CHECK(e[5].path == "/var/lib/kubelet/device-plugins/nvidia-gpu.sock");
  CHECK(e[6].kind == K::kStartingPlugins);
  CHECK(e[7].kind == K::kLoadingConfig);
}

TEST_CASE("ClassifyPluginMessage: Xid from the XidCriticalError line, not from EventData") {
  auto e = ClassifyFixture("formats/device-plugin_klog_xid-unhealthy_cloud-native-docs.txt");
  REQUIRE(e.size() == 3);
  CHECK(e[0].kind == K::kUnknown);  // "Processing event {... EventData:109 ...}"
  CHECK(e[1].kind == K::kXidCritical);
  CHECK(e[1].xid == 79);
  CHECK(e[1].device == "GPU-adb24b25-1db1-436e-d958-ddee5da83d07");
  CHECK(e[2].kind == K::kDeviceUnhealthy);
  CHECK(e[2].resource == "nvidia.com/gpu");
  CHECK(e[2].device == "GPU-adb24b25-1db1-436e-d958-ddee5da83d07");
}

TEST_CASE("ClassifyPluginMessage: NVML failure texts of every version") {
  struct Case {
    const char* message;
    K kind;
    const char* error;
  };
  const Case cases[] = {
      {"Failed to initialize NVML: could not load NVML library.", K::kNvmlInitFailed,
       "could not load NVML library"},
      {"Failed to initialize NVML: nvml: Unknown Error.", K::kNvmlInitFailed, "nvml: Unknown Error"},
      {"Failed to initialize NVML: ERROR_UNKNOWN.", K::kNvmlInitFailed, "ERROR_UNKNOWN"},
      {"Failed to initialize NVML: Unknown Error.", K::kNvmlInitFailed, "Unknown Error"},
      {"Failed to initialize NVML: RM has detected an NVML/RM version mismatch..", K::kNvmlInitFailed,
       "RM has detected an NVML/RM version mismatch."},
      {"nvml init failed: ERROR_LIBRARY_NOT_FOUND", K::kNvmlInitFailed, "ERROR_LIBRARY_NOT_FOUND"},
      {"nvml init failed: Unknown Error", K::kNvmlInitFailed, "Unknown Error"},
      {"Detected non-NVML platform: could not load NVML library: libnvidia-ml.so.1: cannot open "
       "shared object file: No such file or directory",
       K::kNonNvmlPlatform,
       "could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file "
       "or directory"},
      {"NVML not detected: could not load NVML library: libnvidia-ml.so.1: cannot open shared object "
       "file: No such file or directory",
       K::kNonNvmlPlatform,
       "could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file "
       "or directory"},
      {"error starting plugins: error getting plugins: unable to create plugins: failed to construct "
       "resource managers: invalid device discovery strategy",
       K::kExitError,
       "error getting plugins: unable to create plugins: failed to construct resource managers: "
       "invalid device discovery strategy"},
      {"error starting plugins: error creating plugin manager: unable to create plugin manager: nvml "
       "init failed: ERROR_UNKNOWN",
       K::kExitError,
       "error creating plugin manager: unable to create plugin manager: nvml init failed: "
       "ERROR_UNKNOWN"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    PluginEvent e = ClassifyPluginMessage(c.message);
    CHECK(e.kind == c.kind);
    CHECK(e.error == c.error);
  }
}

TEST_CASE("ClassifyPluginMessage: incompatible platform, v0.13 and v0.16 wording") {
  PluginEvent old_words = ClassifyPluginMessage("Incompatible platform detected");
  CHECK(old_words.kind == K::kIncompatiblePlatform);
  CHECK(old_words.detail.empty());
  PluginEvent new_words = ClassifyPluginMessage("Incompatible strategy detected auto");
  CHECK(new_words.kind == K::kIncompatiblePlatform);
  CHECK(new_words.detail == "auto");
  CHECK(ClassifyPluginMessage("If this is a GPU node, did you configure the NVIDIA Container Toolkit?")
            .kind == K::kAdvice);
}

TEST_CASE("ClassifyPluginMessage: the v0.17+ banner, whole or cut at its first line") {
  // Real banner: NVIDIA/k8s-device-plugin#1470 (v0.18.0).
  PluginEvent joined = ClassifyPluginMessage(
      "\"Starting NVIDIA Device Plugin\" version=<\n\t3c9ffca9\n"
      "\tcommit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592\n >");
  CHECK(joined.kind == K::kVersionBanner);
  CHECK(joined.version == "3c9ffca9");
  PluginEvent cut = ClassifyPluginMessage("\"Starting NVIDIA Device Plugin\" version=<");
  CHECK(cut.kind == K::kVersionBanner);
  CHECK(cut.version.empty());
  PluginEvent quoted = ClassifyPluginMessage("\"Starting NVIDIA Device Plugin\" version=\"v0.17.0\"");
  CHECK(quoted.version == "v0.17.0");
  PluginEvent watcher = ClassifyPluginMessage("Starting FS watcher for /var/lib/kubelet/device-plugins");
  CHECK(watcher.kind == K::kFsWatcherStarted);
  CHECK(watcher.path == "/var/lib/kubelet/device-plugins");
  PluginEvent retrieving = ClassifyPluginMessage("Retrieving plugins.");
  CHECK(retrieving.kind == K::kRetrievingPlugins);
  CHECK(retrieving.version_hint == ">=v0.15");
}

TEST_CASE("ClassifyPluginMessage: health-check wording across versions") {
  PluginEvent old_xid = ClassifyPluginMessage(
      "XidCriticalError: Xid=48 on Device=GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f, the device will go "
      "unhealthy.");
  CHECK(old_xid.kind == K::kXidCritical);
  CHECK(old_xid.xid == 48);
  CHECK(old_xid.device == "GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f");

  PluginEvent all_old = ClassifyPluginMessage("XidCriticalError: Xid=79, All devices will go unhealthy.");
  CHECK(all_old.kind == K::kAllDevicesUnhealthy);
  CHECK(all_old.xid == 79);
  PluginEvent all_new =
      ClassifyPluginMessage("Error waiting for event: Unknown Error; Marking all devices as unhealthy");
  CHECK(all_new.kind == K::kAllDevicesUnhealthy);
  CHECK(all_new.error == "Error waiting for event: Unknown Error");
  CHECK(ClassifyPluginMessage("Error waiting for event: GPU is lost; marking all devices as unhealthy")
            .kind == K::kAllDevicesUnhealthy);

  PluginEvent events = ClassifyPluginMessage(
      "unabled to determine the supported events for GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f: "
      "ERROR_NOT_SUPPORTED; marking it as unhealthy");
  CHECK(events.kind == K::kHealthCheckDeviceError);
  CHECK(events.device == "GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f");
  CHECK(events.error == "ERROR_NOT_SUPPORTED");
  PluginEvent old_card = ClassifyPluginMessage("Device GPU-0 is too old to support healthchecking.");
  CHECK(old_card.kind == K::kHealthCheckDeviceError);
  CHECK(old_card.device == "GPU-0");

  PluginEvent off = ClassifyPluginMessage(
      "Failed to start health check: failed to create event set: ERROR_NOT_SUPPORTED; continuing with "
      "health checks disabled");
  CHECK(off.kind == K::kHealthCheckFailed);
  CHECK(off.error == "failed to create event set: ERROR_NOT_SUPPORTED");
  PluginEvent ignored = ClassifyPluginMessage(
      "Ignoring the following XIDs for health checks: map[13:true 31:true 43:true 45:true 68:true 109:true]");
  CHECK(ignored.kind == K::kIgnoredXids);
  CHECK(ignored.detail == "map[13:true 31:true 43:true 45:true 68:true 109:true]");
}

TEST_CASE("ClassifyPluginMessage: the start loop and its exits") {
  CHECK(ClassifyPluginMessage("No devices found. Waiting indefinitely.").kind == K::kNoDevices);
  PluginEvent retry = ClassifyPluginMessage("Failed to start one or more plugins. Retrying in 30s...");
  CHECK(retry.kind == K::kStartRetry);
  CHECK(retry.detail == "30s");
  CHECK(ClassifyPluginMessage("Received SIGHUP, restarting.").kind == K::kSighup);
  PluginEvent signal = ClassifyPluginMessage("Received signal \"terminated\", shutting down.");
  CHECK(signal.kind == K::kShutdownSignal);
  CHECK(signal.detail == "terminated");
  PluginEvent failed = ClassifyPluginMessage(
      "Failed to start plugin: failed to register plugin: rpc error: code = Unavailable");
  CHECK(failed.kind == K::kRegistrationFailed);
  CHECK(failed.error == "failed to register plugin: rpc error: code = Unavailable");
  CHECK(ClassifyPluginMessage("Could not contact Kubelet. Did you enable the device plugin feature gate?")
            .kind == K::kKubeletUnreachable);
  PluginEvent crash = ClassifyPluginMessage(
      "GRPC server for 'nvidia.com/gpu' crashed with error: use of closed network connection");
  CHECK(crash.kind == K::kGrpcServerCrashed);
  CHECK(crash.error == "use of closed network connection");
  CHECK(ClassifyPluginMessage("Running with config:").kind == K::kConfigDump);
  CHECK(ClassifyPluginMessage("Initializing NVML.").kind == K::kLoadingNvml);
  CHECK(ClassifyPluginMessage("Registered device plugin for 'nvidia.com/gpu' with Kubelet   ").kind ==
        K::kRegistered);
  CHECK(ClassifyPluginMessage("").kind == K::kUnknown);
}

TEST_CASE("ClassifyPluginMessage: error text with bytes that are not UTF-8") {
  PluginEvent e = ClassifyPluginMessage("nvml init failed: \xff\xfe");
  CHECK(e.kind == K::kNvmlInitFailed);
  CHECK(e.error == "\xff\xfe");
}

TEST_CASE("ClassifyPluginMessage: GKE's nvidia-gpu-device-plugin, start to registration and back") {
  // The glog format strings of GoogleCloudPlatform/container-engine-accelerators
  // @992db81 (cmd/nvidia_gpu/nvidia_gpu.go, pkg/gpu/nvidia/manager.go, beta_plugin.go).
  struct Case {
    const char* line;
    K kind;
    const char* field;
  };
  const Case cases[] = {
      {"I0612 10:00:00.000100       1 nvidia_gpu.go:112] device-plugin started", K::kStartingPlugins, ""},
      {"F0612 10:00:00.100000       1 nvidia_gpu.go:157] failed to initialize nvml: Unknown Error",
       K::kNvmlInitFailed, "Unknown Error"},
      {"I0612 10:00:01.000000       1 manager.go:447] registered with kubelet, will use beta API", K::kUnknown, ""},
      {"I0612 10:00:01.000100       1 manager.go:456] Starting filesystem watcher.", K::kUnknown, ""},
      {"I0612 10:00:01.000200       1 manager.go:466] starting device-plugin server at: "
       "/device-plugin/nvidiaGPU-1781258401.sock",
       K::kGrpcServerStarting, "/device-plugin/nvidiaGPU-1781258401.sock"},
      {"I0612 10:00:02.000000       1 manager.go:493] device-plugin server started serving", K::kServing, ""},
      {"I0612 10:00:02.010000       1 manager.go:501] device-plugin registered with the kubelet", K::kRegistered, ""},
      {"I0612 10:00:03.000000       1 manager.go:450] no kubelet.sock to register.", K::kKubeletUnreachable, ""},
      {"I0612 11:00:00.000000       1 manager.go:532]  /device-plugin/kubelet.sock recreated, stopping device-plugin "
       "server",
       K::kKubeletSocketCreated, "/device-plugin/kubelet.sock"},
      {"I0612 11:00:00.000100       1 manager.go:515] stopping device-plugin server at: "
       "/device-plugin/nvidiaGPU-1781258401.sock",
       K::kStoppedServing, "/device-plugin/nvidiaGPU-1781258401.sock"},
      {"I0612 12:00:00.000000       1 beta_plugin.go:47] device-plugin: nvidia3 device marked as Unhealthy",
       K::kDeviceUnhealthy, "nvidia3"},
      {"E0612 12:00:00.000000       1 health_checker.go:439] XidCriticalError: Xid=79 on Device=nvidia3, "
       "uuid=GPU-0ab1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5, the device will go unhealthy.",
       K::kXidCritical, "nvidia3"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.line);
    PluginEvent e = ClassifyPluginMessage(StripHeaders(c.line));
    CHECK(e.kind == c.kind);
    std::string field = !e.error.empty() ? e.error : !e.path.empty() ? e.path : e.device;
    CHECK(field == c.field);
  }
}

TEST_CASE("the chain's wordings and the analyzer's classifier agree on every plugin's lines") {
  const char* lines[] = {
      "I1118 03:20:17.306000 1 server.go:146] Registered device plugin for 'nvidia.com/gpu' with Kubelet",
      "2019/06/20 10:20:30 Registered device plugin with Kubelet",
      "I1118 03:20:17.305000 1 server.go:131] Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock",
      "E1118 03:20:16.501000 1 factory.go:112] Failed to initialize NVML: Unknown Error.",
      "I0312 08:01:02.000000 1 manager.go:301] device-plugin registered with the kubelet",
      "I0312 08:01:01.000000 1 manager.go:290] device-plugin server started serving",
      "F0312 08:01:00.000000 1 nvidia_gpu.go:75] failed to initialize nvml: could not load NVML library",
      "I0312 08:01:00.000000 1 manager.go:260] registered with kubelet, will use beta API",
  };
  for (std::string_view line : lines) {
    CAPTURE(line);
    PluginChainEvent chain = ClassifyPluginChainLine(line).event;
    K kind = ClassifyPluginMessage(StripHeaders(line)).kind;
    CHECK((chain == PluginChainEvent::kRegistered) == (kind == K::kRegistered));
    CHECK((chain == PluginChainEvent::kServing) == (kind == K::kServing));
    CHECK((chain == PluginChainEvent::kNvmlInitFailed) == (kind == K::kNvmlInitFailed));
  }
}

TEST_CASE("the chain's wordings say what the message catalogue says of a plugin's registration and NVML failure") {
  int checked = 0;
  for (const MessageEntry& e : BuiltinMessages().entries) {
    if (e.component.find("device-plugin") == std::string::npos &&
        e.component.find("device plugin") == std::string::npos) {
      continue;
    }
    CAPTURE(e.id);
    PluginChainEvent chain = ClassifyPluginChainLine(e.example).event;
    if (e.event == "plugin_registered") {
      CHECK(chain == PluginChainEvent::kRegistered);
    } else if (e.event == "nvml_init_failed") {
      CHECK(chain == PluginChainEvent::kNvmlInitFailed);
    } else {
      // Never a registration; a start that failed on NVML ("error starting
      // plugins: ... nvml init failed: ...") is an NVML failure to the chain.
      CHECK(chain != PluginChainEvent::kRegistered);
    }
    // A look-alike the catalogue refuses is not that step of the chain either.
    if (chain != PluginChainEvent::kNone) CHECK(ClassifyPluginChainLine(e.lookalike).event != chain);
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("PluginEventKindName: stable names") {
  CHECK(std::string(PluginEventKindName(K::kNvmlInitFailed)) == "nvml_init_failed");
  CHECK(std::string(PluginEventKindName(K::kKubeletSocketCreated)) == "kubelet_socket_created");
  CHECK(std::string(PluginEventKindName(K::kUnknown)) == "unknown");
}

TEST_CASE("FindPluginConfigs: the v0.17 dump after an empty klog message") {
  // Real dump: zalando-incubator/kubernetes-on-aws#8468 (v0.17, klog headers stripped).
  std::vector<std::string> lines = {
      "Updating config with default resource matching patterns.",
      "",
      "Running with config:",
      "{",
      "  \"version\": \"v1\",",
      "  \"flags\": {",
      "    \"migStrategy\": \"none\",",
      "    \"failOnInitError\": false,",
      "    \"mpsRoot\": \"\",",
      "    \"nvidiaDriverRoot\": \"/\",",
      "    \"nvidiaDevRoot\": \"/\",",
      "    \"gdsEnabled\": false,",
      "    \"mofedEnabled\": false,",
      "    \"useNodeFeatureAPI\": null,",
      "    \"deviceDiscoveryStrategy\": \"auto\",",
      "    \"plugin\": {",
      "      \"passDeviceSpecs\": true,",
      "      \"deviceListStrategy\": [",
      "        \"envvar\"",
      "      ],",
      "      \"deviceIDStrategy\": \"uuid\",",
      "      \"cdiAnnotationPrefix\": \"cdi.k8s.io/\",",
      "      \"nvidiaCTKPath\": \"/usr/bin/nvidia-ctk\",",
      "      \"containerDriverRoot\": \"/driver-root\"",
      "    }",
      "  },",
      "  \"resources\": {",
      "    \"gpus\": [",
      "      {",
      "        \"pattern\": \"*\",",
      "        \"name\": \"nvidia.com/gpu\"",
      "      }",
      "    ]",
      "  },",
      "  \"sharing\": {",
      "    \"timeSlicing\": {}",
      "  }",
      "}",
      "Retrieving plugins.",
  };
  auto scan = FindPluginConfigs(Messages(lines));
  CHECK(scan.warnings.empty());
  REQUIRE(scan.configs.size() == 1);
  const PluginConfig& c = scan.configs[0];
  CHECK(c.line == 3);
  CHECK(c.fail_on_init_error == false);
  CHECK(c.mig_strategy == "none");
  CHECK(c.device_list_strategy == std::vector<std::string>{"envvar"});
  CHECK(c.device_id_strategy == "uuid");
  CHECK(c.pass_device_specs == true);
  CHECK(c.nvidia_driver_root == "/");
  CHECK(c.device_discovery_strategy == "auto");
  CHECK(c.resource_names == std::vector<std::string>{"nvidia.com/gpu"});
}

TEST_CASE("FindPluginConfigs: a v0.12 dump with a string list strategy and time-slicing renames") {
  // Shape of a 2023 v0.12 Go-log dump (deviceListStrategy still a string),
  // with a time-slicing rename added.
  std::vector<std::string> lines = {
      "Running with config:",
      "{",
      "  \"version\": \"v1\",",
      "  \"flags\": {",
      "    \"migStrategy\": \"mixed\",",
      "    \"failOnInitError\": true,",
      "    \"nvidiaDriverRoot\": \"/run/nvidia/driver\",",
      "    \"plugin\": {",
      "      \"passDeviceSpecs\": false,",
      "      \"deviceListStrategy\": \"envvar\",",
      "      \"deviceIDStrategy\": \"uuid\"",
      "    }",
      "  },",
      "  \"resources\": {",
      "    \"gpus\": [{\"pattern\": \"*\", \"name\": \"nvidia.com/gpu\"}],",
      "    \"mig\": [{\"pattern\": \"1g.10gb\", \"name\": \"nvidia.com/mig-1g.10gb\"}]",
      "  },",
      "  \"sharing\": {",
      "    \"timeSlicing\": {\"resources\": [{\"name\": \"nvidia.com/gpu\", \"rename\": \"nvidia.com/gpu.shared\", \"replicas\": 4}]}",
      "  }",
      "}",
  };
  auto scan = FindPluginConfigs(Messages(lines));
  CHECK(scan.warnings.empty());
  REQUIRE(scan.configs.size() == 1);
  const PluginConfig& c = scan.configs[0];
  CHECK(c.fail_on_init_error == true);
  CHECK(c.mig_strategy == "mixed");
  CHECK(c.device_list_strategy == std::vector<std::string>{"envvar"});
  CHECK(c.nvidia_driver_root == "/run/nvidia/driver");
  CHECK(c.pass_device_specs == false);
  CHECK(c.resource_names ==
        std::vector<std::string>{"nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/gpu.shared"});
}

TEST_CASE("FindPluginConfigs: flags at the top level, on the header line, twice") {
  std::vector<std::string> lines = {
      "Running with config: {\"migStrategy\": \"single\", \"failOnInitError\": false,",
      "  \"plugin\": {\"deviceListStrategy\": [\"volume-mounts\", \"cdi-annotations\"]}}",
      "Retreiving plugins.",
      "Running with config:",
      "{\"flags\": {\"migStrategy\": \"none\"}, \"note\": \"a } inside a string\"}",
  };
  auto scan = FindPluginConfigs(Messages(lines));
  CHECK(scan.warnings.empty());
  REQUIRE(scan.configs.size() == 2);
  CHECK(scan.configs[0].line == 1);
  CHECK(scan.configs[0].mig_strategy == "single");
  CHECK(scan.configs[0].fail_on_init_error == false);
  CHECK(scan.configs[0].device_list_strategy ==
        std::vector<std::string>{"volume-mounts", "cdi-annotations"});
  CHECK(scan.configs[1].line == 4);
  CHECK(scan.configs[1].mig_strategy == "none");
  CHECK_FALSE(scan.configs[1].fail_on_init_error.has_value());
}

TEST_CASE("PluginConfigFinder: a brace that never closes holds at most 1 MiB, and later dumps are still read") {
  PluginConfigFinder finder;
  finder.Add({1, "Running with config:"});
  finder.Add({2, "{"});
  const std::string filler(1000, 'x');
  int line = 3;
  for (; line < 2000; ++line) finder.Add({line, filler});
  finder.Add({line, "Running with config: {\"flags\": {\"migStrategy\": \"mixed\"}}"});
  auto scan = finder.Finish();
  REQUIRE(scan.warnings.size() == 1);
  CHECK(scan.warnings[0].line == 1);
  CHECK(scan.warnings[0].message == "config dump over 1 MiB; not read");
  REQUIRE(scan.configs.size() == 1);
  CHECK(scan.configs[0].line == line);
  CHECK(scan.configs[0].mig_strategy == "mixed");
}

TEST_CASE("FindPluginConfigs: dumps cut short or broken become warnings") {
  auto no_json = FindPluginConfigs(Messages({"Running with config:", "Retrieving plugins."}));
  CHECK(no_json.configs.empty());
  REQUIRE(no_json.warnings.size() == 1);
  CHECK(no_json.warnings[0].line == 1);
  CHECK(no_json.warnings[0].message == "no JSON after 'Running with config:'");

  auto cut = FindPluginConfigs(Messages({"x", "Running with config:", "{", "  \"version\": \"v1\","}));
  REQUIRE(cut.warnings.size() == 1);
  CHECK(cut.warnings[0].line == 2);
  CHECK(cut.warnings[0].message == "config dump ends before its closing brace");

  auto bad = FindPluginConfigs(Messages({"Running with config:", "{", "  \"version\" \"v1\"", "}"}));
  REQUIRE(bad.warnings.size() == 1);
  CHECK(bad.warnings[0].message == "config dump is not a JSON object");
}

TEST_CASE("ReadPluginLine: klog and Go-log headers come off, the message is classified") {
  PluginLine klog = ReadPluginLine(
      "I1017 12:05:33.312453    1667 server.go:154] Registered device plugin for 'nvidia.com/gpu' with Kubelet");
  CHECK(klog.severity == "I");
  CHECK(klog.source_file == "server.go:154");
  CHECK(klog.message == "Registered device plugin for 'nvidia.com/gpu' with Kubelet");
  CHECK(klog.event == "registered");
  PluginLine golog = ReadPluginLine("2021/04/26 23:19:16 Loading NVML");
  CHECK(golog.severity == "");
  CHECK(golog.message == "Loading NVML");
  PluginLine plain = ReadPluginLine("something else entirely");
  CHECK(plain.message == "something else entirely");
  CHECK_FALSE(plain.event);
}

}  // TEST_SUITE

}  // namespace gpuf
