// collect --exec chroot: the host's own binaries, run inside the host root,
// as from a privileged pod with the host mounted at /host.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("collect_exec") {

TEST_CASE("collect --exec chroot runs the host's nvidia-smi inside the host root") {
  const char* busybox = "/bin/busybox";
  if (geteuid() != 0 || access(busybox, X_OK) != 0) {
    MESSAGE("needs root and busybox-static; skipped");
    return;
  }
  test::FakeHost host;
  const std::string root = host.root();
  std::filesystem::create_directories(root + "/bin");
  std::filesystem::copy_file(busybox, root + "/bin/busybox");
  for (const char* applet : {"sh", "cat"}) std::filesystem::create_symlink("busybox", root + "/bin/" + applet);
  test::WriteFile(root + "/usr/bin/nvidia-smi",
                  "#!/bin/sh\ncat /etc/gpus\n", 0755);
  host.AddFile("/etc/gpus", "GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)\n");
  host.AddFile("/etc/hostname", "gpu-node-7\n");
  const std::string out = root + "/../chroot.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", root, "--exec", "chroot", "-o", out, "--timeout", "5"},
                                   {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "KUBECONFIG="});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  auto members = test::ReadBundleMembers(out);
  auto manifest = nlohmann::json::parse(members.at(0).second);
  CHECK(manifest["options"]["exec_mode"] == "chroot");
  bool seen = false;
  for (const auto& a : manifest["artifacts"]) {
    if (a["name"] == "host.nvidia_smi_list") {
      seen = true;
      CHECK(a["argv"] == nlohmann::json({"chroot", root, "nvidia-smi", "-L"}));
      CHECK(a["status"] == "ok");
      for (const auto& [name, data] : members) {
        if (name == a["outputs"][0]["member"]) {
          CHECK(data == "GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)\n");
        }
      }
    }
    if (a["name"] == "versions.crictl") {
      CHECK(a["skip_reason"] == "tool_missing");
      CHECK(a["error"] == "'crictl' not found on the host's PATH under " + root);
    }
  }
  CHECK(seen);
}

}  // TEST_SUITE

}  // namespace gpuf
