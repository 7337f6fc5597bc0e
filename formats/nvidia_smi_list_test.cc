#include "formats/nvidia_smi_list.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("nvidia_smi_list") {

TEST_CASE("ParseNvidiaSmiList: plain GPUs, names with spaces") {
  // Real format: formats/nvidia-smi-L_plain-2xA10_cloud-native-docs.txt
  auto gpus = ParseNvidiaSmiList(
      "GPU 0: NVIDIA A10 (UUID: GPU-0f2a1b3c-1111-2222-3333-444455556666)\n"
      "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-9a8b7c6d-1111-2222-3333-444455556666)\n");
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[1].index == 1);
  CHECK(gpus[1].name == "NVIDIA H100 80GB HBM3");
  CHECK(gpus[1].uuid == "GPU-9a8b7c6d-1111-2222-3333-444455556666");
  CHECK(gpus[1].line == 2);
}

TEST_CASE("ParseNvidiaSmiList: MIG devices count under their GPU") {
  auto gpus = ParseNvidiaSmiList(
      "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f)\n"
      "  MIG 1g.5gb      Device  0: (UUID: MIG-c7384736-a75d-5afc-978f-d2f1294409fd)\n"
      "  MIG 1g.5gb      Device  1: (UUID: MIG-a28ad590-3fda-56dd-84fc-0a0b96edc58d)\n");
  REQUIRE(gpus.size() == 1);
  CHECK(gpus[0].mig_devices == 2);
}

TEST_CASE("ParseNvidiaSmiList: error text yields no GPUs") {
  CHECK(ParseNvidiaSmiList("Failed to initialize NVML: Unknown Error\n").empty());
}

}  // TEST_SUITE

}  // namespace gpuf
