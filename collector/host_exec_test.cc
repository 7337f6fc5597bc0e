#include "collector/host_exec.h"

#include <doctest/doctest.h>

#include "tests/test_support.h"

namespace gpuf {

namespace {

// A host root holding nvidia-smi at `host_path`, and chroot and nsenter
// stubs in dir/bin (the PATH the tests give).
HostRoot HostWithNvidiaSmi(const test::TempDir& dir, const std::string& host_path) {
  test::WriteFile(dir / ("root" + host_path), "#!/bin/sh\n", 0755);
  test::WriteFile(dir / "bin/chroot", "#!/bin/sh\n", 0755);
  test::WriteFile(dir / "bin/nsenter", "#!/bin/sh\n", 0755);
  auto host = HostRoot::Open(dir / "root");
  REQUIRE(host.ok());
  return std::move(*host);
}

}  // namespace

TEST_SUITE("host_exec") {

TEST_CASE("HostExec: chroot and nsenter wrap the host's own tool, path uses PATH") {
  test::TempDir dir;
  const HostRoot root = HostWithNvidiaSmi(dir, "/usr/bin/nvidia-smi");
  const std::string path = dir / "bin";

  SUBCASE("chroot") {
    HostExec exec(ExecMode::kChroot, root, path);
    PreparedCommand c = exec.Prepare({"nvidia-smi", "-L"});
    CHECK(c.executable == dir / "bin/chroot");
    CHECK(c.argv == std::vector<std::string>{"chroot", dir / "root", "nvidia-smi", "-L"});
    CHECK(exec.HostPathArg("/etc/kubernetes/kubelet.conf") == "/etc/kubernetes/kubelet.conf");
    CHECK(exec.JournalRootArgs().empty());
    CHECK(exec.Prepare({"crictl", "ps"}).missing == "'crictl' not found on the host's PATH under " + dir / "root");
  }
  SUBCASE("nsenter") {
    HostExec exec(ExecMode::kNsenter, root, path);
    PreparedCommand c = exec.Prepare({"nvidia-smi", "-L"});
    CHECK(c.argv == std::vector<std::string>{"nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--", "nvidia-smi",
                                             "-L"});
  }
  SUBCASE("path") {
    HostExec exec(ExecMode::kPath, root, path);
    CHECK(exec.Prepare({"nvidia-smi", "-L"}).missing == "'nvidia-smi' not found on PATH");
    CHECK(exec.HostPathArg("/etc/x") == dir / "root/etc/x");
    CHECK(exec.JournalRootArgs() == std::vector<std::string>{"--root", dir / "root"});
  }
  CHECK(ParseExecMode("docker").status().message() == "--exec must be path, chroot or nsenter, not 'docker'");
}

TEST_CASE("HostExec: a platform's own tool directory, by full path under the root") {
  test::TempDir dir;
  // RKE2 keeps crictl and kubectl in /var/lib/rancher/rke2/bin, off the standard PATH.
  const HostRoot root = HostWithNvidiaSmi(dir, "/var/lib/rancher/rke2/bin/crictl");
  const std::string path = dir / "bin";
  const std::vector<std::string> rke2 = {"/var/lib/rancher/rke2/bin"};

  HostExec chroot(ExecMode::kChroot, root, path, rke2);
  CHECK(chroot.Has("crictl"));
  CHECK(chroot.Prepare({"crictl", "ps"}).argv ==
        std::vector<std::string>{"chroot", dir / "root", "/var/lib/rancher/rke2/bin/crictl", "ps"});
  CHECK_FALSE(chroot.Has("kubectl"));
  HostExec without(ExecMode::kChroot, root, path);
  CHECK_FALSE(without.Has("crictl"));
  // In path mode the host's binary is run by its path as this machine sees it.
  HostExec in_path(ExecMode::kPath, root, path, rke2);
  CHECK(in_path.Has("crictl"));
  PreparedCommand c = in_path.Prepare({"crictl", "ps"});
  CHECK(c.executable == dir / "root/var/lib/rancher/rke2/bin/crictl");
  CHECK(c.argv == std::vector<std::string>{"crictl", "ps"});
  CHECK(in_path.Prepare({"kubectl", "get", "node"}).missing == "'kubectl' not found on PATH");
  // A tool on the collector's PATH comes first.
  test::WriteFile(dir / "bin/crictl", "#!/bin/sh\n", 0755);
  CHECK(in_path.Prepare({"crictl", "ps"}).executable == dir / "bin/crictl");
}

TEST_CASE("HostExec: nvidia-smi of a driver container runs in its root, in every mode") {
  test::TempDir dir;
  const HostRoot root = HostWithNvidiaSmi(dir, "/run/nvidia/driver/usr/bin/nvidia-smi");
  const std::string path = dir / "bin";

  HostExec in_path(ExecMode::kPath, root, path);
  CHECK(in_path.Has("nvidia-smi"));
  PreparedCommand c = in_path.Prepare({"nvidia-smi", "-L"});
  CHECK(c.executable == dir / "bin/chroot");
  CHECK(c.argv == std::vector<std::string>{"chroot", dir / "root/run/nvidia/driver", "/usr/bin/nvidia-smi", "-L"});
  CHECK(HostExec(ExecMode::kChroot, root, path).Prepare({"nvidia-smi", "-L"}).argv ==
        std::vector<std::string>{"chroot", dir / "root/run/nvidia/driver", "/usr/bin/nvidia-smi", "-L"});
  CHECK(HostExec(ExecMode::kNsenter, root, path).Prepare({"nvidia-smi", "-L"}).argv ==
        std::vector<std::string>{"nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--", "chroot",
                                 "/run/nvidia/driver", "/usr/bin/nvidia-smi", "-L"});
  // Only the driver's own tools are looked for there.
  CHECK_FALSE(in_path.Has("crictl"));

  // The host's own nvidia-smi comes first.
  test::WriteFile(dir / "bin/nvidia-smi", "#!/bin/sh\n", 0755);
  CHECK(in_path.Prepare({"nvidia-smi", "-L"}).argv == std::vector<std::string>{"nvidia-smi", "-L"});
}

}  // TEST_SUITE

}  // namespace gpuf
