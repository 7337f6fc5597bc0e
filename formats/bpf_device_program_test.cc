#include "formats/bpf_device_program.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// runc's shape: a block per rule, the first that matches decides, deny last.
// Allows c 195:* rw (the NVIDIA devices) and c 1:3 rwm (/dev/null).
constexpr char kRuncStyle[] =
    "   0: (61) r2 = *(u32 *)(r1 +0)\n"
    "   1: (54) w2 &= 65535\n"
    "   2: (61) r3 = *(u32 *)(r1 +0)\n"
    "   3: (74) w3 >>= 16\n"
    "   4: (61) r4 = *(u32 *)(r1 +4)\n"
    "   5: (61) r5 = *(u32 *)(r1 +8)\n"
    "   6: (55) if r2 != 0x2 goto pc+5\n"
    "   7: (bc) w1 = w3\n"
    "   8: (54) w1 &= 6\n"
    "   9: (5d) if r1 != r3 goto pc+2\n"
    "  10: (55) if r4 != 0xc3 goto pc+1\n"
    "  11: (05) goto pc+5\n"
    "  12: (55) if r2 != 0x2 goto pc+6\n"
    "  13: (55) if r4 != 0x1 goto pc+5\n"
    "  14: (55) if r5 != 0x3 goto pc+4\n"
    "  15: (05) goto pc+1\n"
    "  16: (05) goto pc+0\n"
    "  17: (b4) w0 = 1\n"
    "  18: (95) exit\n"
    "  19: (b4) w0 = 0\n"
    "  20: (95) exit\n";

}  // namespace

TEST_SUITE("bpf_device_program") {

TEST_CASE("BpfDeviceAllows: runs the program as the kernel would, per device and access") {
  BpfDeviceProgram p = ParseBpfXlated(kRuncStyle);
  REQUIRE(p.readable);
  CHECK(p.warnings.empty());
  CHECK(p.instructions.size() == 21);
  const int rw = kBpfDevRead | kBpfDevWrite;
  CHECK(BpfDeviceAllows(p, 'c', 195, 0, rw) == true);
  CHECK(BpfDeviceAllows(p, 'c', 195, 255, kBpfDevRead) == true);
  // mknod is not among the access the GPU rule grants.
  CHECK(BpfDeviceAllows(p, 'c', 195, 0, rw | kBpfDevMknod) == false);
  CHECK(BpfDeviceAllows(p, 'c', 1, 3, rw | kBpfDevMknod) == true);
  CHECK(BpfDeviceAllows(p, 'c', 5, 0, rw) == false);
  CHECK(BpfDeviceAllows(p, 'b', 195, 0, rw) == false);
}

TEST_CASE("ParseBpfXlated: source lines and blank lines are skipped, an unknown instruction makes it unreadable") {
  BpfDeviceProgram p = ParseBpfXlated(
      "; int sd_devices(struct bpf_cgroup_dev_ctx *ctx)\n"
      "   0: (b7) r0 = 1\n"
      "\n"
      "   1: (95) exit\n");
  REQUIRE(p.readable);
  CHECK(BpfDeviceAllows(p, 'c', 195, 0, kBpfDevRead) == true);

  BpfDeviceProgram odd = ParseBpfXlated("   0: (85) call bpf_get_current_uid_gid#80848\n   1: (95) exit\n");
  CHECK_FALSE(odd.readable);
  REQUIRE(odd.warnings.size() == 1);
  CHECK(odd.warnings[0].message == "instruction not understood: call bpf_get_current_uid_gid#80848");
  CHECK_FALSE(BpfDeviceAllows(odd, 'c', 195, 0, kBpfDevRead).has_value());
}

TEST_CASE("BpfDeviceAllows: a program with no exit on its path cannot tell") {
  BpfDeviceProgram p = ParseBpfXlated("   0: (b4) w0 = 1\n   1: (05) goto pc-2\n");
  REQUIRE(p.readable);
  CHECK_FALSE(BpfDeviceAllows(p, 'c', 195, 0, kBpfDevRead).has_value());
}

}  // TEST_SUITE

}  // namespace gpuf
