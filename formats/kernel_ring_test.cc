#include "formats/kernel_ring.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("kernel_ring") {

TEST_CASE("ParseKernelRing: stamps, -r priorities, a record of several lines, text before the first stamp") {
  KernelRing ring = ParseKernelRing(
      "dmesg: read kernel buffer failed: Operation not permitted\n"
      "[    0.000000] Linux version 6.1.0-27-amd64\n"
      "<4>[    5.118236] nvidia: loading out-of-tree module taints kernel.\n"
      "[ 1843.308145] NVRM: Xid (PCI:0000:b3:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      " continued here\r\n"
      "\n"
      "[12.5] short fraction\n");
  CHECK(ring.unread_lines == 1);
  REQUIRE(ring.records.size() == 4);
  CHECK(ring.records[0].line == 2);
  CHECK(ring.records[0].since_boot_us == 0);
  CHECK(ring.records[1].since_boot_us == 5118236);
  CHECK(ring.records[1].message == "nvidia: loading out-of-tree module taints kernel.");
  CHECK(ring.records[2].line == 4);
  CHECK(ring.records[2].since_boot_us == 1843308145);
  CHECK(ring.records[2].message ==
        "NVRM: Xid (PCI:0000:b3:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
        " continued here");
  CHECK(ring.records[3].since_boot_us == 12500000);
  CHECK(ParseKernelRing("").records.empty());
}

TEST_CASE("ParseKernelRing: a record whose message is not UTF-8 is still a record of its own") {
  KernelRing ring = ParseKernelRing("[    1.000000] first\n[    2.000000] usb 1-1: Product: \xff\xfe\n");
  REQUIRE(ring.records.size() == 2);
  CHECK(ring.records[1].since_boot_us == 2000000);
  CHECK(ring.records[1].message == "usb 1-1: Product: \xff\xfe");
}

}  // TEST_SUITE

}  // namespace gpuf
