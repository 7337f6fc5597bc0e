#include "analyzer/rules/subject_keys.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("subject_keys") {
TEST_CASE("GpuDirectory: a UUID, a minor number and a bus join into one GPU") {
  GpuDirectory gpus;
  gpus.Add({.bus = "00000000:3B:00.0", .uuid = "GPU-AAAA", .index = 0});
  gpus.Add({.bus = "0000:3b:00.0", .minor = 4});
  gpus.Add({.bus = "PCI:0000:5e:00", .uuid = "GPU-bbbb"});
  CHECK(gpus.Key("device", "GPU-aaaa") == "0000:3b:00.0");
  CHECK(gpus.Key("minor", "4") == "0000:3b:00.0");
  CHECK(gpus.Key("index", "0") == "0000:3b:00.0");
  CHECK(gpus.Key("bus", "PCI:0000:5E:00") == "0000:5e:00.0");
  CHECK(gpus.Key("uuid", "GPU-bbbb") == "0000:5e:00.0");
  // Unknown to the directory: still a key, never equal to another GPU's.
  CHECK(gpus.Key("device", "GPU-cccc") == "gpu-cccc");
  CHECK(gpus.Key("minor", "7") == "minor:7");
  CHECK(gpus.Key("device", "MIG-1234") == "mig-1234");
  CHECK_FALSE(gpus.Key("gpu", "all"));
}

TEST_CASE("GpuDirectory: GKE's device name nvidiaN is the GPU of minor N") {
  GpuDirectory gpus;
  gpus.Add({.bus = "0000:3b:00.0", .minor = 4});
  CHECK(gpus.Key("device", "nvidia4") == "0000:3b:00.0");
  CHECK(gpus.Key("device", "nvidia9") == "minor:9");
  CHECK_FALSE(gpus.Key("device", "nvidiactl"));
  CHECK_FALSE(gpus.Key("device", "nvidia"));
}

TEST_CASE("GpuDirectory: a board serial names its GPU, a placeholder serial names none") {
  GpuDirectory gpus;
  gpus.Add({.bus = "00000000:3B:00.0", .uuid = "GPU-AAAA", .serial = "1654922007785"});
  gpus.Add({.bus = "00000000:5E:00.0", .uuid = "GPU-BBBB", .serial = "0000000000000"});
  gpus.Add({.bus = "00000000:86:00.0", .uuid = "GPU-CCCC", .serial = "0000000000000"});
  gpus.Add({.uuid = "GPU-DDDD", .serial = "[N/A]"});
  CHECK(gpus.Key("serial", "1654922007785") == "0000:3b:00.0");
  CHECK(gpus.Key("serial", "1654922009999") == "serial:1654922009999");
  CHECK_FALSE(gpus.Key("serial", "0000000000000"));
  CHECK_FALSE(gpus.Key("serial", "[N/A]"));
  // The zeros did not make the two boards one GPU.
  CHECK(gpus.Key("uuid", "GPU-BBBB") == "0000:5e:00.0");
  CHECK(gpus.Key("uuid", "GPU-CCCC") == "0000:86:00.0");
}

TEST_CASE("GpuDirectory: rows are tagged from their first field that names a GPU or a container") {
  GpuDirectory gpus;
  gpus.Add({.bus = "0000:2b:00.0", .uuid = "GPU-79"});
  std::vector<SelectionRow> rows(3);
  rows[0].fields = {{"bus", "0000:2b:00"}, {"code", "79"}};
  rows[1].fields = {{"resource", "nvidia.com/gpu"}, {"device", "GPU-79"}, {"container_id", "ABCDEF"}};
  rows[2].fields = {{"scope", "all"}};
  gpus.Tag(rows);
  CHECK(rows[0].gpu == "0000:2b:00.0");
  CHECK(rows[1].gpu == "0000:2b:00.0");
  CHECK(rows[1].container == "abcdef");
  CHECK_FALSE(rows[2].gpu);
}

TEST_CASE("SameContainer: the 13-character form names the full ID") {
  CHECK(SameContainer("4F1C2A9B7E3D5", "4f1c2a9b7e3d5a6c8b0e1f2d3c4b5a69"));
  CHECK_FALSE(SameContainer("4f1c2a9b7e3d5", "4f1c2a9b7e3d6a6c8b0e1f2d3c4b5a69"));
  CHECK_FALSE(SameContainer("4f1c", "4f1c2a9b7e3d5a6c"));  // too short to be an ID's prefix
  CHECK(SameContainer("abc", "ABC"));
}

}  // TEST_SUITE

}  // namespace gpuf
