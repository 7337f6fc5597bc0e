#include "formats/version_strings.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

namespace {


ParsedVersions ParseFixture(const char* name) {
  return ParseVersionOutput(test::DropPromptLines(test::Fixture(name)));
}

}  // namespace

TEST_SUITE("version_strings") {

TEST_CASE("SplitVersion: semver, vendor suffixes, distro packages, lone numbers") {
  auto v = SplitVersion("v1.31.1-aliyun.1");
  REQUIRE(v);
  CHECK(v->major == 1);
  CHECK(v->minor == 31);
  CHECK(v->patch == 1);
  CHECK(v->suffix == "-aliyun.1");
  auto rc = SplitVersion("1.0.0-rc10");
  REQUIRE(rc);
  CHECK(rc->patch == 0);
  CHECK(rc->suffix == "-rc10");
  auto deb = SplitVersion("252.39-1~deb12u1");
  REQUIRE(deb);
  CHECK(deb->major == 252);
  CHECK(deb->minor == 39);
  CHECK_FALSE(deb->patch.has_value());
  CHECK(deb->suffix == "-1~deb12u1");
  auto lone = SplitVersion("219");
  REQUIRE(lone);
  CHECK(lone->major == 219);
  CHECK(lone->minor == 0);
  CHECK_FALSE(lone->patch.has_value());
  auto driver = SplitVersion("565.57.01");
  REQUIRE(driver);
  CHECK(driver->patch == 1);
  CHECK(driver->suffix.empty());
  auto k3s = SplitVersion("v1.28.3+k3s2");
  REQUIRE(k3s);
  CHECK(k3s->suffix == "+k3s2");
  CHECK(SplitVersion("1.2.3.4")->suffix == ".4");
  CHECK_FALSE(SplitVersion("unknown"));
  CHECK_FALSE(SplitVersion(""));
  CHECK_FALSE(SplitVersion("v"));
}

TEST_CASE("ParseVersionOutput: containerd and runc across five Kubernetes releases") {
  auto parsed = ParseFixture("formats/versions_containerd-runc-across-releases_docker-archive.txt");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.components.size() == 10);
  const ComponentVersion& old_containerd = parsed.components[0];
  CHECK(old_containerd.component == "containerd");
  CHECK(old_containerd.version == "v1.3.3");
  CHECK(old_containerd.parts.minor == 3);
  CHECK(old_containerd.revision == "d76c121f76a5fc8a462dc64594aea72fe18e1178");
  const ComponentVersion& rc10 = parsed.components[1];
  CHECK(rc10.component == "runc");
  CHECK(rc10.version == "1.0.0-rc10");
  CHECK(rc10.parts.suffix == "-rc10");
  CHECK(rc10.revision.empty());  // runc rc10 prints no commit line
  const ComponentVersion& runc117 = parsed.components[5];
  CHECK(runc117.version == "1.1.7");
  CHECK(runc117.revision == "v1.1.7-0-g860f061b");
  const ComponentVersion& containerd2 = parsed.components[8];
  CHECK(containerd2.version == "v2.2.0");
  CHECK(containerd2.parts.major == 2);
  CHECK(containerd2.revision == "1c4457e00facac03ce1d75f7b6777a7a851e5c41");
  CHECK(parsed.components[9].version == "1.3.3");
  CHECK(parsed.components[9].revision == "v1.3.3-0-gd842d771");
}

TEST_CASE("ParseVersionOutput: Docker's containerd.io package prints no v") {
  auto parsed = ParseFixture("formats/versions_containerd-io-docker-package_docker-archive.txt");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.components.size() == 1);
  CHECK(parsed.components[0].component == "containerd");
  CHECK(parsed.components[0].version == "1.4.12");
  CHECK(parsed.components[0].revision == "7b11cfaabd73bb80907dd23182b9347b4245eb5d");
}

TEST_CASE("ParseVersionOutput: NVIDIA container toolkit binaries") {
  auto ctk = ParseFixture("formats/versions_nvidia-ctk_nct-50.txt");
  CHECK(ctk.warnings.empty());
  REQUIRE(ctk.components.size() == 1);
  CHECK(ctk.components[0].component == "nvidia-ctk");
  CHECK(ctk.components[0].version == "1.12.0");
  CHECK(ctk.components[0].revision == "62bd015475656ef795cb0d59cc4030a6bd4a9526");

  auto hook = ParseFixture("formats/versions_nvidia-container-toolkit-hook_docker-archive.txt");
  CHECK(hook.warnings.empty());
  REQUIRE(hook.components.size() == 2);
  CHECK(hook.components[0].component == "nvidia-container-runtime-hook");
  CHECK(hook.components[0].version == "1.10.0");
  CHECK(hook.components[0].revision == "7cfd3bd");
  CHECK(hook.components[1].parts.minor == 16);

  // The fixture keeps the command line without a prompt and "." elisions.
  auto runtime = ParseFixture("formats/versions_nvidia-container-runtime_meta-tegra-1475.txt");
  CHECK(runtime.warnings.empty());
  REQUIRE(runtime.components.size() == 1);
  CHECK(runtime.components[0].component == "nvidia-container-runtime");
  CHECK(runtime.components[0].version == "1.11.0");
  CHECK(runtime.components[0].revision == "670+d9de4a0");
  CHECK(runtime.components[0].line == 2);
}

TEST_CASE("ParseVersionOutput: nvidia-container-cli, old and current forms") {
  auto old_form = ParseFixture("formats/versions_nvidia-container-cli-V-old-format_nvidia-docker-1232.txt");
  CHECK(old_form.warnings.empty());
  REQUIRE(old_form.components.size() == 1);
  CHECK(old_form.components[0].component == "nvidia-container-cli");
  CHECK(old_form.components[0].version == "1.0.7");
  CHECK(old_form.components[0].revision == "b71f87c04b8eca8a16bf60995506c35c937347d9");

  // Current layout, from libnvidia-container src/cli/main.c.
  auto current = ParseVersionOutput(
      "cli-version: 1.17.8\n"
      "lib-version: 1.17.8\n"
      "build date: 2025-05-30T13:47+00:00\n"
      "build revision: 6eda4d76c8c5f8fc174e4abca83e513fb4dd63b0\n"
      "build compiler: x86_64-linux-gnu-gcc-7 7.5.0\n"
      "build platform: x86_64\n");
  CHECK(current.warnings.empty());
  REQUIRE(current.components.size() == 2);
  CHECK(current.components[0].component == "nvidia-container-cli");
  CHECK(current.components[1].component == "libnvidia-container");
  CHECK(current.components[0].revision == "6eda4d76c8c5f8fc174e4abca83e513fb4dd63b0");
  CHECK(current.components[1].revision == "6eda4d76c8c5f8fc174e4abca83e513fb4dd63b0");

  auto bare = ParseVersionOutput("version: 2\n");
  CHECK(bare.components.empty());
  REQUIRE(bare.warnings.size() == 1);
  CHECK(bare.warnings[0].message == "no version banner recognised");
}

TEST_CASE("ParseVersionOutput: kubelet, with vendor suffixes") {
  auto upstream = ParseFixture("formats/versions_kubelet-version_kubernetes-19214.txt");
  CHECK(upstream.warnings.empty());
  REQUIRE(upstream.components.size() == 1);
  CHECK(upstream.components[0].component == "kubelet");
  CHECK(upstream.components[0].version == "v1.1.3");
  auto vendor = ParseVersionOutput("Kubernetes v1.31.1-aliyun.1\n");
  REQUIRE(vendor.components.size() == 1);
  CHECK(vendor.components[0].parts.minor == 31);
  CHECK(vendor.components[0].parts.patch == 1);
  CHECK(vendor.components[0].parts.suffix == "-aliyun.1");
}

TEST_CASE("ParseVersionOutput: systemd with and without a package version, crictl") {
  auto debian = ParseVersionOutput(
      "systemd 252 (252.39-1~deb12u1)\n"
      "+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID\n");
  CHECK(debian.warnings.empty());
  REQUIRE(debian.components.size() == 1);
  CHECK(debian.components[0].component == "systemd");
  CHECK(debian.components[0].version == "252.39-1~deb12u1");
  CHECK(debian.components[0].parts.major == 252);
  CHECK(debian.components[0].parts.minor == 39);
  auto el7 = ParseVersionOutput("systemd 219\n+PAM +AUDIT +SELINUX +IMA -APPARMOR +SMACK +SYSVINIT\n");
  REQUIRE(el7.components.size() == 1);
  CHECK(el7.components[0].version == "219");
  CHECK(el7.components[0].parts.major == 219);
  auto crictl = ParseVersionOutput("crictl version v1.31.1\n");
  REQUIRE(crictl.components.size() == 1);
  CHECK(crictl.components[0].component == "crictl");
  CHECK(crictl.components[0].parts.patch == 1);
}

TEST_CASE("ParseVersionOutput: CRI-O before and after 1.31, and crun") {
  auto crio = ParseVersionOutput(
      "crio version 1.18.3\n"
      "Version:       1.18.3\n"
      "GitCommit:     61de18161fb4ccda720768c001713592b5a04e46\n"
      "GitTreeState:  clean\n"
      "BuildDate:     2020-08-05T09:40:33Z\n"
      "GoVersion:     go1.14.6\n"
      "Compiler:      gc\n"
      "Platform:      linux/amd64\n"
      "Linkmode:      dynamic\n");
  CHECK(crio.warnings.empty());
  REQUIRE(crio.components.size() == 1);
  CHECK(crio.components[0].component == "crio");
  CHECK(crio.components[0].version == "1.18.3");
  auto newer = ParseVersionOutput("crio version Version:        1.31.0\nGitCommit:      f68b12ced5b49799aaa42097540def6a67dc6643\n");
  REQUIRE(newer.components.size() == 1);
  CHECK(newer.components[0].version == "1.31.0");
  CHECK(newer.components[0].parts.minor == 31);
  auto crun = ParseVersionOutput(
      "crun version 1.14.4\n"
      "commit: a220ca661ce078f2c37b38c92e66cf66c012d9c1\n"
      "rundir: /run/user/1000/crun\n"
      "spec: 1.0.0\n"
      "+SYSTEMD +SELINUX +APPARMOR +CAP +SECCOMP +EBPF +CRIU +YAJL\n");
  REQUIRE(crun.components.size() == 1);
  CHECK(crun.components[0].component == "crun");
  CHECK(crun.components[0].version == "1.14.4");
}

TEST_CASE("ParseVersionOutput: a banner with an unreadable version is a warning") {
  auto parsed = ParseVersionOutput("runc version unknown\nspec: 1.0.2-dev\n");
  CHECK(parsed.components.empty());
  REQUIRE(parsed.warnings.size() == 1);
  CHECK(parsed.warnings[0].line == 1);
  CHECK(parsed.warnings[0].message == "runc version 'unknown' does not start with a number");
  CHECK(ParseVersionOutput("").warnings.empty());
}

}  // TEST_SUITE

}  // namespace gpuf
