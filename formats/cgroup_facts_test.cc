#include "formats/cgroup_facts.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

namespace {

// The fixtures are terminal transcripts; the collector stores only what
// follows the command line.
std::string OutputAfter(const std::string& transcript, const std::string& command_line) {
  size_t at = transcript.find(command_line + "\n");
  REQUIRE(at != std::string::npos);
  return transcript.substr(at + command_line.size() + 1);
}

}  // namespace

TEST_SUITE("cgroup_facts") {

TEST_CASE("ParseDevicesList: a GPU container's v1 allow-list") {
  std::string text = OutputAfter(
      test::Fixture("formats/cgroupv1-devices-list_gpu-container_nct-192.txt"),
      "# cat  /sys/fs/cgroup/devices//kubepods.slice/kubepods-besteffort.slice/"
      "kubepods-besteffort-podc3a94178_40e0_4739_bcad_4ee8ec576a0f.slice/"
      "cri-containerd-c70324c0804812a23c105488e0cb302d3611089c2b75a7b98ff7d094ca9c9e3d.scope/devices.list");
  auto list = ParseDevicesList(text);
  CHECK(list.warnings.empty());
  REQUIRE(list.rules.size() == 15);
  CHECK(list.rules[0].line == 1);
  CHECK(list.rules[0].type == 'c');
  CHECK(list.rules[0].major == 136);
  CHECK_FALSE(list.rules[0].minor.has_value());
  CHECK(list.rules[0].access == "rwm");
  CHECK(list.rules[10].type == 'b');
  CHECK_FALSE(list.rules[10].major.has_value());
  CHECK(list.rules[10].access == "m");
  CHECK(list.rules[14].major == 195);
  CHECK(list.rules[14].minor == 7);
  CHECK(list.rules[14].access == "rw");

  CHECK(DevicesListAllowsReadWrite(list.rules, 195, 7));      // nvidia7
  CHECK(DevicesListAllowsReadWrite(list.rules, 195, 255));    // nvidiactl
  CHECK(DevicesListAllowsReadWrite(list.rules, 508, 0));      // nvidia-uvm
  CHECK_FALSE(DevicesListAllowsReadWrite(list.rules, 195, 0));  // another GPU: mknod only
}

TEST_CASE("ParseDevicesList: after daemon-reload only mknod remains") {
  auto list = ParseDevicesList("c 195:* m\n");
  REQUIRE(list.rules.size() == 1);
  CHECK_FALSE(DevicesListAllowsReadWrite(list.rules, 195, 0));
}

TEST_CASE("DevicesListAllowsReadWrite: the root cgroup allows all, rw must come from one rule") {
  CHECK(DevicesListAllowsReadWrite(ParseDevicesList("a *:* rwm\n").rules, 195, 3));
  CHECK_FALSE(DevicesListAllowsReadWrite(ParseDevicesList("c 195:* r\nc 195:0 w\n").rules, 195, 0));
  CHECK_FALSE(DevicesListAllowsReadWrite(ParseDevicesList("b 195:0 rw\n").rules, 195, 0));
}

TEST_CASE("ParseDevicesList: bad lines become warnings, good ones stay") {
  auto list = ParseDevicesList("c 195:0 rw\n...\nc 195:x rw\nc 195:1 rwx\nx 1:1 r\n\nc 195:255 rw\n");
  CHECK(list.rules.size() == 2);
  CHECK(list.rules[1].line == 7);
  REQUIRE(list.warnings.size() == 4);
  CHECK(list.warnings[0].line == 2);
  CHECK(list.warnings[0].message == "not a devices.list rule: ...");
  CHECK(list.warnings[1].message == "not a devices.list rule: c 195:x rw");
  CHECK(list.warnings[2].line == 4);
  CHECK(list.warnings[3].line == 5);
}

TEST_CASE("ParseCgroupMountinfo: unified v2") {
  auto layout = ParseCgroupMountinfo(
      "24 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
      "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
      "rw,nsdelegate,memory_recursiveprot\n");
  CHECK(layout.mode == "v2");
  CHECK_FALSE(layout.v1_devices);
  CHECK(layout.warnings.empty());
}

TEST_CASE("ParseCgroupMountinfo: hybrid keeps the v1 devices controller") {
  auto layout = ParseCgroupMountinfo(
      "34 24 0:29 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
      "35 34 0:30 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate\n"
      "36 34 0:31 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup "
      "rw,xattr,name=systemd\n"
      "40 34 0:35 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:17 - cgroup cgroup rw,devices\n"
      "41 34 0:36 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:18 - cgroup cgroup "
      "rw,cpu,cpuacct\n");
  CHECK(layout.mode == "hybrid");
  CHECK(layout.v1_devices);
  CHECK(layout.devices_mount == "/sys/fs/cgroup/devices");
  CHECK(layout.warnings.empty());
}

TEST_CASE("ParseCgroupMountinfo: v1 with Cilium's cgroup2 mount stays v1") {
  auto layout = ParseCgroupMountinfo(
      "40 34 0:35 / /sys/fs/cgroup/devices rw,nosuid,nodev,noexec,relatime shared:17 - cgroup cgroup rw,devices\n"
      "612 29 0:72 / /run/cilium/cgroupv2 rw,relatime shared:300 - cgroup2 none rw\n");
  CHECK(layout.mode == "v1");
  CHECK(layout.v1_devices);
}

TEST_CASE("ParseCgroupMountinfo: escaped mount points and bad lines") {
  auto layout = ParseCgroupMountinfo(
      "40 34 0:35 / /sys/fs/cgroup/dev\\040ices rw shared:17 - cgroup cgroup rw,devices\n"
      "garbage\n");
  CHECK(layout.devices_mount == "/sys/fs/cgroup/dev ices");
  REQUIRE(layout.warnings.size() == 1);
  CHECK(layout.warnings[0].line == 2);
  CHECK(layout.warnings[0].message == "not a mountinfo line: garbage");
}

TEST_CASE("ParseCgroupMountinfo: no cgroup mount is said, not guessed") {
  auto layout = ParseCgroupMountinfo("24 30 0:22 / /sys rw shared:7 - sysfs sysfs rw\n");
  CHECK(layout.mode == "");
  REQUIRE(layout.warnings.size() == 1);
  CHECK(layout.warnings[0].line == 0);
  CHECK(layout.warnings[0].message == "no cgroup or cgroup2 mount");
}

TEST_CASE("ParseSystemctlShow: units split on blank lines, DeviceAllow accumulates") {
  auto show = ParseSystemctlShow(
      "Id=kubelet.service\n"
      "LoadState=loaded\n"
      "ActiveState=active\n"
      "ExecMainStartTimestamp=Tue 2025-11-18 03:30:00 UTC\n"
      "NRestarts=0\n"
      "\n"
      "Id=cri-containerd-c70324c0804812a2.scope\n"
      "DevicePolicy=strict\n"
      "DeviceAllow=/dev/char/195:0 rw\n"
      "DeviceAllow=char-pts rwm\n"
      "Environment=A=1\n"
      "ActiveEnterTimestamp=\n");
  CHECK(show.warnings.empty());
  REQUIRE(show.units.size() == 2);
  CHECK(show.units[0].line == 1);
  CHECK(show.units[0].Get("ExecMainStartTimestamp") == "Tue 2025-11-18 03:30:00 UTC");
  CHECK(show.units[0].lines.at("ActiveState") == 3);
  CHECK(show.units[1].line == 7);
  CHECK(show.units[1].lines.at("DeviceAllow") == 10);  // the last of a repeated key
  CHECK(show.units[1].Get("DevicePolicy") == "strict");
  CHECK(show.units[1].values.at("DeviceAllow") ==
        std::vector<std::string>{"/dev/char/195:0 rw", "char-pts rwm"});
  CHECK(show.units[1].Get("Environment") == "A=1");
  CHECK(show.units[1].values.at("ActiveEnterTimestamp") == std::vector<std::string>{""});
  CHECK(show.units[1].Get("Missing") == "");
}

TEST_CASE("ParseSystemctlShow: lines without '=' are warnings") {
  auto show = ParseSystemctlShow("\n\nId=a.service\nFailed to get properties: Access denied\n");
  REQUIRE(show.units.size() == 1);
  CHECK(show.units[0].line == 3);
  REQUIRE(show.warnings.size() == 1);
  CHECK(show.warnings[0].line == 4);
  CHECK(show.warnings[0].message == "not a KEY=VALUE line: Failed to get properties: Access denied");
}

TEST_CASE("ParseBpftoolCgroup: list output with runc's unnamed program") {
  auto parsed = ParseBpftoolCgroup(
      "ID       AttachType      AttachFlags     Name           \n"
      "81000    cgroup_device   multi                          \n");
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.programs.size() == 1);
  CHECK(parsed.programs[0].line == 2);
  CHECK(parsed.programs[0].id == 81000);
  CHECK(parsed.programs[0].attach_type == "cgroup_device");
  CHECK(parsed.programs[0].attach_flags == "multi");
  CHECK(parsed.programs[0].name == "");
  CHECK(parsed.programs[0].cgroup_path == "");
}

TEST_CASE("ParseBpftoolCgroup: runc fixture, tree form") {
  std::string text = OutputAfter(
      test::Fixture("formats/bpftool-prog-show-and-cgroup-tree_runc-unnamed_runc-4180.txt"),
      "$ sudo bpftool cgroup tree");
  auto parsed = ParseBpftoolCgroup(text);
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.programs.size() == 1);
  CHECK(parsed.programs[0].cgroup_path ==
        "/sys/fs/cgroup/nomad.slice/7b910f31-96c0-f837-7703-d4aff621d807.image-router.scope");
  CHECK(parsed.programs[0].id == 81000);
  CHECK(parsed.programs[0].name == "");
}

TEST_CASE("ParseBpftoolCgroup: systemd programs, trailing spaces, abort line kept as warning") {
  std::string text = OutputAfter(
      test::Fixture("formats/bpftool-cgroup-tree_systemd-sd_devices_bpftool-159.txt"),
      "$ sudo bpftool cgroup tree");
  auto parsed = ParseBpftoolCgroup(text);
  REQUIRE(parsed.programs.size() == 10);
  CHECK(parsed.programs[0].cgroup_path == "/sys/fs/cgroup");
  CHECK(parsed.programs[0].id == 181);
  CHECK(parsed.programs[0].attach_type == "cgroup_inet_ingress");
  CHECK(parsed.programs[0].name == "sd_fw_ingress");
  CHECK(parsed.programs[6].cgroup_path == "/sys/fs/cgroup/workload.slice/prometheus.service");
  CHECK(parsed.programs[6].id == 158);
  CHECK(parsed.programs[6].attach_type == "cgroup_device");
  CHECK(parsed.programs[6].attach_flags == "multi");
  CHECK(parsed.programs[6].name == "sd_devices");
  REQUIRE(parsed.warnings.size() == 1);
  CHECK(parsed.warnings[0].line == 18);
  CHECK(parsed.warnings[0].message ==
        "Error: can't query bpf programs attached to "
        "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice: No such device");
}

TEST_CASE("ParseBpftoolCgroup: empty flags column and unreadable rows") {
  auto parsed = ParseBpftoolCgroup(
      "ID       AttachType      AttachFlags     Name\n"
      "12       device                          my_prog\n"
      "abc      cgroup_device   multi\n");
  REQUIRE(parsed.programs.size() == 1);
  CHECK(parsed.programs[0].attach_type == "device");
  CHECK(parsed.programs[0].attach_flags == "");
  CHECK(parsed.programs[0].name == "my_prog");
  REQUIRE(parsed.warnings.size() == 1);
  CHECK(parsed.warnings[0].line == 3);
  CHECK(parsed.warnings[0].message == "not a bpftool cgroup row: abc      cgroup_device   multi");
}

}  // TEST_SUITE

}  // namespace gpuf
