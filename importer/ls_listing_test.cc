#include "importer/ls_listing.h"

#include <doctest/doctest.h>

#include "formats/listing.h"

namespace gpuf {

TEST_SUITE("ls_listing") {

TEST_CASE("ConvertLsOutput: device nodes, /dev/char links and the device-plugin directory") {
  TimeHints hints;
  hints.year = 2026;
  hints.utc_offset_seconds = 8 * 3600;
  LsConversion ls = ConvertLsOutput(
      "crw-rw-rw- 1 root root 195,   0 Nov 18 11:18 /dev/nvidia0\n"
      "crw-rw-rw-. 1 root root 195,255 Nov 18 11:18 /dev/nvidiactl\n"
      "lrwxrwxrwx 1 root root      10 Nov 18 11:18 /dev/char/195:0 -> ../nvidia0\n"
      "ls: cannot access '/dev/nvidia-caps*': No such file or directory\n",
      "", hints);
  CHECK(ls.rows == 3);
  CHECK(ls.lines_skipped == 1);
  CHECK(ls.listings["dev.nvidia_nodes"] ==
        "# gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target\n"
        "/dev/nvidia0\tc\t0666\t0\t0\t195\t0\t0\t1794971880000000000\t\n"
        "/dev/nvidiactl\tc\t0666\t0\t0\t195\t255\t0\t1794971880000000000\t\n");
  ParsedListing links = ParseListing(ls.listings["dev.char_links"]);
  REQUIRE(links.rows.size() == 1);
  CHECK(links.rows[0].path == "/dev/char/195:0");
  CHECK(links.rows[0].link_target == "../nvidia0");
  CHECK(links.bad_lines.empty());

  LsConversion dir = ConvertLsOutput(
      "total 4\n"
      "srwxr-xr-x 1 root root   0 Nov 18 11:18 kubelet.sock\n"
      "-rw------- 1 root root 441 Nov  2  2025 kubelet_internal_checkpoint\n",
      "/var/lib/kubelet/device-plugins", hints);
  ParsedListing sockets = ParseListing(dir.listings["kubelet.device_plugins"]);
  REQUIRE(sockets.rows.size() == 2);
  CHECK(sockets.rows[0].path == "/var/lib/kubelet/device-plugins/kubelet.sock");
  CHECK(sockets.rows[0].type == "s");
  CHECK(sockets.rows[1].mode == 0600);
  CHECK(sockets.rows[1].size_bytes == 441);
  CHECK(sockets.rows[1].mtime_ns == 1762012800000000000LL);  // 2025-11-02T00:00+08:00
}

TEST_CASE("ConvertLsOutput: --full-time carries seconds, fraction and zone") {
  TimeHints hints;
  LsConversion ls = ConvertLsOutput(
      "srwxr-xr-x 1 root root 0 2026-11-18 11:18:07.516660000 +0800 /var/lib/kubelet/device-plugins/kubelet.sock\n",
      "", hints);
  ParsedListing rows = ParseListing(ls.listings["kubelet.device_plugins"]);
  REQUIRE(rows.rows.size() == 1);
  CHECK(rows.rows[0].mtime_ns == 1794971887516660000LL);
}

TEST_CASE("ConvertLsOutput: times that are not numbers or do not fit skip the row, never throw") {
  TimeHints hints;
  hints.year = 2026;
  for (const char* line : {"crw-rw-rw- 1 root root 195, 0 abcd-ef-gh 11:18 /dev/nvidia0\n",
                           "crw-rw-rw- 1 root root 195, 0 2026-11-18 ab:cd /dev/nvidia0\n",
                           "crw-rw-rw- 1 root root 195, 0 Nov 99999999999 11:18 /dev/nvidia0\n",
                           "crw-rw-rw- 1 root root 195, 0 Nov 18 99999999999 /dev/nvidia0\n"}) {
    LsConversion ls = ConvertLsOutput(line, "", hints);
    CHECK_MESSAGE(ls.rows == 0, line);
  }
}

}  // TEST_SUITE

}  // namespace gpuf
