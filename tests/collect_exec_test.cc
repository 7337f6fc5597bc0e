// collect --exec chroot: the host's own binaries, run inside the host root,
// as from a privileged pod with the host mounted at /host.
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/un.h>
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

namespace {

// A host root with busybox and stub crictl and ctr that say they ran, as
// --exec chroot finds them (/usr/bin under the root).
void AddRuntimeTools(const std::string& root, bool with_crictl) {
  std::filesystem::create_directories(root + "/bin");
  std::filesystem::copy_file("/bin/busybox", root + "/bin/busybox");
  std::filesystem::create_symlink("busybox", root + "/bin/sh");
  if (with_crictl) {
    test::WriteFile(root + "/usr/bin/crictl",
                    "#!/bin/sh\ncase \"$1\" in --version) echo 'crictl version v1.31.1' ;; *) echo '{\"containers\": []}' ;; esac\n",
                    0755);
  }
  test::WriteFile(root + "/usr/bin/ctr", "#!/bin/sh\necho 'TASK    PID    STATUS'\n", 0755);
}

const nlohmann::json* FindArtifact(const nlohmann::json& manifest, const std::string& name) {
  for (const auto& a : manifest["artifacts"]) {
    if (a["name"] == name) return &a;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("collect --exec chroot: crictl and ctr are not started against a runtime socket that is not there") {
  if (geteuid() != 0 || access("/bin/busybox", X_OK) != 0) {
    MESSAGE("needs root and busybox-static; skipped");
    return;
  }
  const std::vector<std::string> env = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "KUBECONFIG="};
  test::FakeHost host;
  AddRuntimeTools(host.root(), true);
  const std::string out = host.root() + "/../no-socket.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "--exec", "chroot", "-o", out, "--no-driver"}, env);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  auto manifest = nlohmann::json::parse(test::ReadBundleMembers(out).at(0).second);
  for (const char* name : {"runtime.crictl_ps", "runtime.crictl_pods", "runtime.crictl_info"}) {
    const auto* a = FindArtifact(manifest, name);
    REQUIRE(a);
    CHECK((*a)["status"] == "skipped");
    CHECK((*a)["skip_reason"] == "not_found");
    CHECK((*a)["error"] ==
          "no runtime socket at /run/containerd/containerd.sock, /run/crio/crio.sock, /var/run/cri-dockerd.sock");
  }
  const auto* version = FindArtifact(manifest, "versions.crictl");
  REQUIRE(version);
  CHECK((*version)["status"] == "ok");  // --version needs no runtime

  // With containerd's socket there, crictl runs.
  std::filesystem::create_directories(host.root() + "/run/containerd");
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", (host.root() + "/run/containerd/containerd.sock").c_str());
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  close(fd);
  const std::string out2 = host.root() + "/../socket.tar.zst";
  run = test::RunGpuforensics({"collect", "--root", host.root(), "--exec", "chroot", "-o", out2, "--no-driver"}, env);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  manifest = nlohmann::json::parse(test::ReadBundleMembers(out2).at(0).second);
  const auto* ps = FindArtifact(manifest, "runtime.crictl_ps");
  REQUIRE(ps);
  CHECK((*ps)["status"] == "ok");
  CHECK((*ps)["argv"] == nlohmann::json({"chroot", host.root(), "crictl", "ps", "-a", "-o", "json"}));

  // Without crictl, ctr: the same check, on containerd's address.
  test::FakeHost bare;
  AddRuntimeTools(bare.root(), false);
  const std::string out3 = bare.root() + "/../ctr.tar.zst";
  run = test::RunGpuforensics({"collect", "--root", bare.root(), "--exec", "chroot", "-o", out3, "--no-driver"}, env);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  manifest = nlohmann::json::parse(test::ReadBundleMembers(out3).at(0).second);
  for (const char* name : {"runtime.ctr_containers", "runtime.ctr_tasks"}) {
    const auto* a = FindArtifact(manifest, name);
    REQUIRE(a);
    CHECK((*a)["skip_reason"] == "not_found");
    CHECK((*a)["error"] == "no containerd socket at /run/containerd/containerd.sock");
  }
}

}  // TEST_SUITE

}  // namespace gpuf
