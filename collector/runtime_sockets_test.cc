#include "collector/runtime_sockets.h"

#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>

#include "tests/test_support.h"

namespace gpuf {

namespace {

// A listening unix socket at `path`, as a runtime leaves one; closed at once
// (the file stays, which is all the check looks at).
void MakeSocket(const std::string& path) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof addr.sun_path);
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  close(fd);
}

}  // namespace

TEST_SUITE("runtime_sockets") {

TEST_CASE("CrictlEndpoints: the option, else crictl.yaml, else crictl's defaults") {
  test::TempDir dir;
  auto host = HostRoot::Open(dir.path());
  REQUIRE(host.ok());
  CHECK(CrictlEndpoints("unix:///run/k3s/containerd/containerd.sock", *host) ==
        std::vector<std::string>{"unix:///run/k3s/containerd/containerd.sock"});
  CHECK(CrictlEndpoints("", *host) ==
        std::vector<std::string>{"unix:///run/containerd/containerd.sock", "unix:///run/crio/crio.sock",
                                 "unix:///var/run/cri-dockerd.sock"});
  // The form crictl writes itself (crictl config runtime-endpoint ...).
  test::WriteFile(dir / "etc/crictl.yaml",
                  "runtime-endpoint: \"unix:///var/run/crio/crio.sock\"\nimage-endpoint: \"\"\ntimeout: 2\n"
                  "debug: false\npull-image-on-create: false\n");
  CHECK(CrictlEndpoints("", *host) == std::vector<std::string>{"unix:///var/run/crio/crio.sock"});
}

TEST_CASE("MissingCrictlSocket and MissingContainerdSocket: absent sockets named, present ones pass") {
  test::TempDir dir;
  auto host = HostRoot::Open(dir.path());
  REQUIRE(host.ok());
  const auto defaults = CrictlEndpoints("", *host);
  CHECK(MissingCrictlSocket(defaults, *host) ==
        "no runtime socket at /run/containerd/containerd.sock, /run/crio/crio.sock, /var/run/cri-dockerd.sock");
  CHECK(MissingContainerdSocket("", *host) == "no containerd socket at /run/containerd/containerd.sock");
  // A regular file where the socket should be is no socket.
  test::WriteFile(dir / "run/crio/crio.sock", "");
  CHECK(MissingCrictlSocket(defaults, *host) != "");

  MakeSocket(dir / "run/containerd/containerd.sock");
  CHECK(MissingCrictlSocket(defaults, *host) == "");
  CHECK(MissingContainerdSocket("", *host) == "");
  CHECK(MissingContainerdSocket("unix:///run/containerd/containerd.sock", *host) == "");
  // /var/run is a link to /run on most hosts: it resolves inside the root.
  std::filesystem::create_directories(dir / "var");
  std::filesystem::create_symlink("../run", dir / "var/run");
  CHECK(MissingCrictlSocket({"unix:///var/run/containerd/containerd.sock"}, *host) == "");
  // What cannot be checked is not refused.
  CHECK(MissingCrictlSocket({"tcp://10.0.0.1:10010"}, *host) == "");
}

}  // TEST_SUITE

}  // namespace gpuf
