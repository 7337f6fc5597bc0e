#include "collector/plugin_logs.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include "common/bundle_layout.h"
#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("plugin_logs") {

TEST_CASE("PluginLogFiles: of the GPU Operator's plugin pod, the plugin container's logs only") {
  test::FakeHost host;
  const std::string pod = "/var/log/pods/gpu-operator_nvidia-device-plugin-daemonset-7xk2p_5c1d/";
  for (const char* container : {"toolkit-validation", "config-manager-init", "nvidia-device-plugin", "config-manager"}) {
    host.AddFile(pod + container + "/0.log", "x\n");
  }
  host.AddFile("/var/log/pods/gpu-operator_nvidia-device-plugin-validator-5mn8q_9e2f/plugin-validation/0.log", "x\n");
  host.AddFile("/var/log/pods/gpu-operator_nvidia-device-plugin-validator-5mn8q_9e2f/"
               "nvidia-device-plugin-validator/0.log", "x\n");
  host.AddFile("/var/log/pods/kube-system_kube-proxy-x8k2p_1a2b/kube-proxy/0.log", "x\n");
  auto root = HostRoot::Open(host.root());
  REQUIRE(root.ok());
  re2::RE2::Options options;
  options.set_case_sensitive(false);
  re2::RE2 pattern(std::string(kDefaultPluginPattern), options);
  CHECK(PluginLogFiles(*root, pattern) == std::vector<std::string>{pod + "nvidia-device-plugin/0.log"});
}

}  // TEST_SUITE

}  // namespace gpuf
