#include "common/plugin_roles.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("plugin_roles") {

TEST_CASE("ClassifyPluginRole: the GPU Operator's plugin pod holds one plugin and three containers of context") {
  // NVIDIA/gpu-operator assets/state-device-plugin/0500_daemonset.yaml: every
  // container of the pod nvidia-device-plugin-daemonset-*, from the plugin's image.
  const std::string image = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0";
  struct Case {
    const char* name;
    std::vector<std::string> command;
    PluginRole role;
    const char* why;
  };
  const Case cases[] = {
      {"toolkit-validation",
       {"sh", "-c", "until [ -f /run/nvidia/validations/toolkit-ready ]; do echo waiting; sleep 5; done"},
       PluginRole::kContext, "GPU Operator validation init container"},
      {"config-manager-init", {"config-manager"}, PluginRole::kContext, "GPU Operator config-manager init container"},
      {"nvidia-device-plugin", {"/bin/sh", "-c", "/bin/entrypoint.sh"}, PluginRole::kPlugin,
       "NVIDIA device plugin image"},
      {"config-manager", {"config-manager"}, PluginRole::kContext, "GPU Operator config-manager sidecar"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    PluginRoleVerdict v = ClassifyPluginRole({c.name, image, c.command}, true);
    CHECK(v.role == c.role);
    CHECK(v.why == c.why);
  }
}

TEST_CASE("ClassifyPluginRole: validator pods complete beside the plugin and are context") {
  // validator/manifests/plugin-workload-validation.yaml and the operator validator's init containers.
  const std::string cuda = "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.9.0";
  CHECK(ClassifyPluginRole({"plugin-validation", cuda, {"sh", "-c", "vectorAdd"}}, true).role == PluginRole::kContext);
  CHECK(ClassifyPluginRole({"nvidia-device-plugin-validator", cuda, {}}, true).why == "GPU Operator validator");
  CHECK(ClassifyPluginRole({"nvidia-operator-validator", cuda, {}}, false).role == PluginRole::kContext);
}

TEST_CASE("ClassifyPluginRole: the binary, then the image, then the name") {
  CHECK(ClassifyPluginRole({"dp", "registry.example/x:1", {"/usr/bin/nvidia-device-plugin", "--fail-on-init-error=false"}},
                           false)
            .why == "runs nvidia-device-plugin");
  CHECK(ClassifyPluginRole({"nvidia-gpu-device-plugin",
                            "gcr.io/gke-release/nvidia-gpu-device-plugin@sha256:6b25281cd0fa3ca55f3e837a18be4a14b44952105568f466530dd85bcebde62f",
                            {"/usr/bin/nvidia-gpu-device-plugin", "-logtostderr"}},
                           true)
            .why == "runs GKE's nvidia-gpu-device-plugin");
  CHECK(ClassifyPluginRole({"plugin", "registry-cn-shanghai-vpc.ack.aliyuncs.com/acs/k8s-device-plugin:v0.9.1-5d4ffd0d-aliyun",
                            {}},
                           false)
            .role == PluginRole::kPlugin);
  PluginRoleVerdict vendor = ClassifyPluginRole({"gpu-device-plugin-ctr", "vendor/gpu-dp:3", {}}, true);
  CHECK(vendor.role == PluginRole::kPlugin);
  CHECK(vendor.why == "its name matches the plugin pattern");
  CHECK(ClassifyPluginRole({"trainer", "pytorch/pytorch:2.4.0", {"python", "train.py"}}, false).role ==
        PluginRole::kOther);
  CHECK(ClassifyPluginRole({"sidecar", "busybox", {"sh", "-c", "sleep 1; exec nvidia-device-plugin"}}, false).role ==
        PluginRole::kPlugin);
}

}  // TEST_SUITE

}  // namespace gpuf
