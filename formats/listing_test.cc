#include "formats/listing.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("listing") {

TEST_CASE("ParseListing: devices, links, sockets and escapes") {
  auto parsed = ParseListing(
      "# gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target\n"
      "/dev/nvidia0\tc\t0666\t0\t0\t195\t0\t0\t1763435896123456789\t\n"
      "/dev/char/195:0\tl\t0777\t0\t0\t\t\t10\t1763435896000000000\t../nvidia0\n"
      "/var/lib/kubelet/device-plugins/kubelet.sock\ts\t0755\t0\t0\t\t\t0\t1763435900000000001\t\n"
      "/tmp/odd\\tname\tf\t0644\t0\t0\t\t\t3\t1\t\n"
      "broken line\n");
  REQUIRE(parsed.rows.size() == 4);
  CHECK(parsed.rows[0].major == 195);
  CHECK(parsed.rows[0].minor == 0);
  CHECK(parsed.rows[0].mode == 0666);
  CHECK(parsed.rows[1].link_target == "../nvidia0");
  CHECK_FALSE(parsed.rows[1].major.has_value());
  CHECK(parsed.rows[2].type == "s");
  CHECK(parsed.rows[2].mtime_ns == 1763435900000000001LL);
  CHECK(parsed.rows[3].path == "/tmp/odd\tname");
  CHECK(parsed.bad_lines == std::vector<int>{6});
}

}  // TEST_SUITE

}  // namespace gpuf
