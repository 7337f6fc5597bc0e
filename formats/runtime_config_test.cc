#include "formats/runtime_config.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

TEST_SUITE("runtime_config") {

TEST_CASE("ParseContainerdConfig: version 2, nvidia default runtime without SystemdCgroup") {
  auto config = ParseContainerdConfig(
      test::Fixture("formats/containerd-config-toml_v2-nvidia-default-runtime_k8s-device-plugin-readme.toml"));
  CHECK(config.warnings.empty());
  CHECK(config.config_version == 2);
  CHECK(config.default_runtime_name == "nvidia");
  REQUIRE(config.runtimes.size() == 1);
  CHECK(config.runtimes[0].name == "nvidia");
  CHECK(config.runtimes[0].runtime_type == "io.containerd.runc.v2");
  CHECK(config.runtimes[0].binary_name == "/usr/bin/nvidia-container-runtime");
  CHECK_FALSE(config.runtimes[0].systemd_cgroup.has_value());
  CHECK_FALSE(config.enable_cdi.has_value());
  CHECK(config.imports.empty());
}

TEST_CASE("ParseContainerdConfig: version 3 moves the CRI plugin") {
  auto config = ParseContainerdConfig(
      test::Fixture("formats/containerd-config-toml_v3-systemdcgroup-copied_nvidia-ctk-tests.toml"));
  CHECK(config.warnings.empty());
  CHECK(config.config_version == 3);
  CHECK(config.default_runtime_name == "");
  REQUIRE(config.runtimes.size() == 2);
  CHECK(config.runtimes[0].name == "runc");
  CHECK(config.runtimes[0].runtime_type == "type");
  CHECK(config.runtimes[0].binary_name == "/usr/bin/runc");
  CHECK(config.runtimes[0].systemd_cgroup == true);
  CHECK(config.runtimes[1].name == "test");
  CHECK(config.runtimes[1].binary_name == "/usr/bin/test");
  CHECK(config.runtimes[1].systemd_cgroup == true);
}

TEST_CASE("ParseContainerdConfig: CDI, imports, and SystemdCgroup set for runc only") {
  auto config = ParseContainerdConfig(R"(version = 2
imports = ["/etc/containerd/conf.d/*.toml"]

[plugins."io.containerd.grpc.v1.cri"]
  enable_cdi = true
  cdi_spec_dirs = ["/etc/cdi", "/var/run/cdi"]
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "nvidia"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = true
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
      runtime_type = "io.containerd.runc.v2"
      runtime_engine = ""
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
        BinaryName = "/usr/bin/nvidia-container-runtime"
)");
  CHECK(config.warnings.empty());
  CHECK(config.enable_cdi == true);
  CHECK(config.cdi_spec_dirs == std::vector<std::string>{"/etc/cdi", "/var/run/cdi"});
  CHECK(config.imports == std::vector<std::string>{"/etc/containerd/conf.d/*.toml"});
  REQUIRE(config.runtimes.size() == 2);
  CHECK(config.runtimes[0].name == "nvidia");
  CHECK_FALSE(config.runtimes[0].systemd_cgroup.has_value());
  CHECK(config.runtimes[1].name == "runc");
  CHECK(config.runtimes[1].systemd_cgroup == true);
}

TEST_CASE("ParseContainerdConfig: version 1 keeps plugins.cri, systemd_cgroup and default_runtime") {
  auto config = ParseContainerdConfig(R"([plugins]
  [plugins.cri]
    systemd_cgroup = true
    [plugins.cri.containerd]
      snapshotter = "overlayfs"
      [plugins.cri.containerd.default_runtime]
        runtime_type = "io.containerd.runtime.v1.linux"
        runtime_engine = "/usr/bin/nvidia-container-runtime"
        runtime_root = ""
)");
  CHECK(config.warnings.empty());
  CHECK(config.config_version == 1);
  CHECK(config.cri_systemd_cgroup == true);
  REQUIRE(config.runtimes.size() == 1);
  CHECK(config.runtimes[0].name == "default_runtime");
  CHECK(config.runtimes[0].binary_name == "/usr/bin/nvidia-container-runtime");
  CHECK_FALSE(config.runtimes[0].systemd_cgroup.has_value());
}

TEST_CASE("ParseContainerdConfig: a drop-in without version still finds its runtimes") {
  auto config = ParseContainerdConfig(R"([plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia]
  runtime_type = "io.containerd.runc.v2"
)");
  CHECK(config.config_version == 1);
  REQUIRE(config.runtimes.size() == 1);
  CHECK(config.runtimes[0].name == "nvidia");
}

TEST_CASE("ParseContainerdConfig: wrong types and unknown versions are warnings") {
  auto config = ParseContainerdConfig(R"(version = 4
[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]
  SystemdCgroup = "true"
)");
  REQUIRE(config.runtimes.size() == 1);
  CHECK_FALSE(config.runtimes[0].systemd_cgroup.has_value());
  REQUIRE(config.warnings.size() == 2);
  CHECK(config.warnings[0].line == 1);
  CHECK(config.warnings[0].message == "version 4 is newer than this parser knows");
  CHECK(config.warnings[1].line == 3);
  CHECK(config.warnings[1].message == "SystemdCgroup: not a boolean");
}

TEST_CASE("ParseContainerdConfig: malformed TOML gives one warning and nothing else") {
  auto config = ParseContainerdConfig("version = 2\n[plugins.\"io.containerd.grpc.v1.cri\"\nenable_cdi = true\n");
  CHECK(config.config_version == 0);
  CHECK(config.runtimes.empty());
  REQUIRE(config.warnings.size() == 1);
  CHECK(config.warnings[0].line == 2);
  CHECK(config.warnings[0].message ==
        "Error while parsing table header: expected ']', saw '\\n'");
}

TEST_CASE("ParseNvidiaRuntimeConfig: the toolkit's generated file") {
  auto config = ParseNvidiaRuntimeConfig(R"(#accept-nvidia-visible-devices-as-volume-mounts = false
disable-require = false
supported-driver-capabilities = "compat32,compute,display,graphics,ngx,utility,video"

[nvidia-container-cli]
#debug = "/var/log/nvidia-container-toolkit.log"
environment = []
ldconfig = "@/sbin/ldconfig.real"
load-kmods = true
no-cgroups = false

[nvidia-container-runtime]
debug = "/var/log/nvidia-container-runtime.log"
log-level = "info"
mode = "legacy"
runtimes = ["docker-runc", "runc", "crun"]

[nvidia-container-runtime.modes.cdi]
default-kind = "nvidia.com/gpu"
spec-dirs = ["/etc/cdi", "/var/run/cdi"]

[nvidia-container-runtime-hook]
path = "nvidia-container-runtime-hook"
skip-mode-detection = false
)");
  CHECK(config.warnings.empty());
  CHECK(config.mode == "legacy");
  CHECK(config.no_cgroups == false);
  CHECK(config.debug_log == "/var/log/nvidia-container-runtime.log");
  CHECK(config.cli_debug_log == "");
}

TEST_CASE("ParseNvidiaRuntimeConfig: unset keys stay unset") {
  auto config = ParseNvidiaRuntimeConfig("[nvidia-container-cli]\n#no-cgroups = false\n");
  CHECK(config.warnings.empty());
  CHECK(config.mode == "");
  CHECK_FALSE(config.no_cgroups.has_value());
}

TEST_CASE("ParseCrioConfig: the device plugin's drop-in") {
  auto config = ParseCrioConfig(test::Fixture("formats/crio-conf-d-99-nvidia_k8s-device-plugin-readme.toml"));
  CHECK(config.warnings.empty());
  CHECK(config.default_runtime == "nvidia");
  CHECK(config.cgroup_manager == "");
  REQUIRE(config.runtimes.size() == 1);
  CHECK(config.runtimes[0].name == "nvidia");
  CHECK(config.runtimes[0].runtime_path == "/usr/bin/nvidia-container-runtime");
  CHECK(config.runtimes[0].runtime_type == "oci");
}

TEST_CASE("ParseCrioConfig: cgroup_manager and a runtime that is not a table") {
  auto config = ParseCrioConfig("[crio.runtime]\ncgroup_manager = \"systemd\"\n[crio.runtime.runtimes]\nrunc = 1\n");
  CHECK(config.cgroup_manager == "systemd");
  CHECK(config.runtimes.empty());
  REQUIRE(config.warnings.size() == 1);
  CHECK(config.warnings[0].line == 4);
  CHECK(config.warnings[0].message == "runc: not a table");
}

TEST_CASE("ParseKubeletConfig: kubeadm's KubeletConfiguration") {
  auto config = ParseKubeletConfig(R"(apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
cgroupDriver: systemd
cpuManagerPolicy: static
featureGates:
  DevicePluginCDIDevices: true
  KubeletPodResourcesGet: false
kind: KubeletConfiguration
staticPodPath: /etc/kubernetes/manifests
)");
  CHECK(config.warnings.empty());
  CHECK(config.cgroup_driver == "systemd");
  CHECK(config.cpu_manager_policy == "static");
  CHECK(config.static_pod_path == "/etc/kubernetes/manifests");
  CHECK(config.feature_gates == std::map<std::string, bool>{{"DevicePluginCDIDevices", true},
                                                            {"KubeletPodResourcesGet", false}});
}

TEST_CASE("ParseKubeletConfig: bad values are warnings, bad YAML empties the result") {
  auto odd = ParseKubeletConfig("cgroupDriver: [systemd]\nfeatureGates:\n  A: maybe\n  B: true\n");
  CHECK(odd.cgroup_driver == "");
  CHECK(odd.feature_gates == std::map<std::string, bool>{{"B", true}});
  REQUIRE(odd.warnings.size() == 2);
  CHECK(odd.warnings[0].line == 1);
  CHECK(odd.warnings[0].message == "cgroupDriver: not a string");
  CHECK(odd.warnings[1].line == 3);
  CHECK(odd.warnings[1].message == "featureGates.A: not a boolean");

  auto broken = ParseKubeletConfig("cgroupDriver: systemd\nfeatureGates: {A: true\n");
  CHECK(broken.cgroup_driver == "");
  REQUIRE(broken.warnings.size() == 1);
  CHECK(broken.warnings[0].line == 3);
  CHECK(broken.warnings[0].message == "end of map flow not found");

  auto empty = ParseKubeletConfig("");
  REQUIRE(empty.warnings.size() == 1);
  CHECK(empty.warnings[0].message == "not a YAML mapping");
}

TEST_CASE("ParseKubeletCheckpoint: NUMA-grouped device ids (kubelet >= 1.20)") {
  auto checkpoint = ParseKubeletCheckpoint(
      R"({"Data":{"PodDeviceEntries":[{"PodUID":"6ffc887b-d619-11e7-8e8b-42010af00002","ContainerName":"cuda",)"
      R"("ResourceName":"nvidia.com/gpu","DeviceIDs":{"0":["GPU-5b3c8a8e"],"1":["GPU-9a8b7c6d"]},)"
      R"("AllocResp":"CiQKFk5WSURJQV9WSVNJQkxFX0RFVklDRVM="}],)"
      R"("RegisteredDevices":{"nvidia.com/gpu":["GPU-5b3c8a8e","GPU-9a8b7c6d"]}},"Checksum":2937353498})");
  CHECK(checkpoint.warnings.empty());
  CHECK(checkpoint.registered_devices.at("nvidia.com/gpu") ==
        std::vector<std::string>{"GPU-5b3c8a8e", "GPU-9a8b7c6d"});
  REQUIRE(checkpoint.pod_entries.size() == 1);
  CHECK(checkpoint.pod_entries[0].pod_uid == "6ffc887b-d619-11e7-8e8b-42010af00002");
  CHECK(checkpoint.pod_entries[0].container_name == "cuda");
  CHECK(checkpoint.pod_entries[0].resource == "nvidia.com/gpu");
  CHECK(checkpoint.pod_entries[0].device_ids == std::vector<std::string>{"GPU-5b3c8a8e", "GPU-9a8b7c6d"});
}

TEST_CASE("ParseKubeletCheckpoint: flat device ids, null entries") {
  auto old = ParseKubeletCheckpoint(
      R"({"Data":{"PodDeviceEntries":[{"PodUID":"u","ContainerName":"c","ResourceName":"nvidia.com/gpu",)"
      R"("DeviceIDs":["GPU-1"],"AllocResp":""}],"RegisteredDevices":{}},"Checksum":1})");
  REQUIRE(old.pod_entries.size() == 1);
  CHECK(old.pod_entries[0].device_ids == std::vector<std::string>{"GPU-1"});

  auto idle = ParseKubeletCheckpoint(
      R"({"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":["GPU-1"]}},"Checksum":7})");
  CHECK(idle.warnings.empty());
  CHECK(idle.pod_entries.empty());
  CHECK(idle.registered_devices.size() == 1);
}

TEST_CASE("ParseKubeletCheckpoint: malformed JSON and odd shapes") {
  auto broken = ParseKubeletCheckpoint("{\"Data\":{\"PodDeviceEntries\":[");
  CHECK(broken.pod_entries.empty());
  REQUIRE(broken.warnings.size() == 1);
  CHECK(broken.warnings[0].line == 1);
  CHECK(broken.warnings[0].message ==
        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");

  auto no_data = ParseKubeletCheckpoint("{}");
  REQUIRE(no_data.warnings.size() == 1);
  CHECK(no_data.warnings[0].message == "no \"Data\" object");

  auto odd = ParseKubeletCheckpoint(R"({"Data":{"PodDeviceEntries":[7,{"PodUID":"u","DeviceIDs":"GPU-1"}]}})");
  REQUIRE(odd.pod_entries.size() == 1);
  REQUIRE(odd.warnings.size() == 2);
  CHECK(odd.warnings[0].message == "PodDeviceEntries[0]: not an object");
  CHECK(odd.warnings[1].message == "PodDeviceEntries[1].DeviceIDs: neither a list nor a NUMA map of lists");
}

}  // TEST_SUITE

}  // namespace gpuf
