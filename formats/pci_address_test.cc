#include "formats/pci_address.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("pci_address") {

TEST_CASE("NormalizePciBusId: nvidia-smi, sysfs and odd spellings") {
  CHECK(NormalizePciBusId("00000000:1B:00.0") == "0000:1b:00.0");
  CHECK(NormalizePciBusId("0000:3b:00.1") == "0000:3b:00.1");
  CHECK(NormalizePciBusId("00010000:E1:1F.7") == "10000:e1:1f.7");  // VMD domains need five digits
  CHECK_FALSE(NormalizePciBusId("PCI:0000:01:00").has_value());
  CHECK_FALSE(NormalizePciBusId("01:00.0").has_value());
  CHECK_FALSE(NormalizePciBusId("0000:01:20.0").has_value());
  CHECK_FALSE(NormalizePciBusId("").has_value());
}

TEST_CASE("NormalizeGpuAddress: the kernel's, nvidia-smi's and sysfs's notations of one GPU are one address") {
  CHECK(NormalizeGpuAddress("PCI:0000:3B:00") == "0000:3b:00.0");
  CHECK(NormalizeGpuAddress("00000000:3B:00.0") == "0000:3b:00.0");
  CHECK(NormalizeGpuAddress("0000:3b:00.0") == "0000:3b:00.0");
  CHECK(NormalizeGpuAddress("3b:00.0") == "0000:3b:00.0");
  CHECK(NormalizeGpuAddress("00010000:E1:1F.7") == "10000:e1:1f.7");
  CHECK_FALSE(NormalizeGpuAddress("all"));
  CHECK_FALSE(NormalizeGpuAddress("GPU-1234"));
  CHECK_FALSE(NormalizeGpuAddress("0000:3b:20.0"));  // device numbers stop at 1f
  CHECK_FALSE(NormalizeGpuAddress("0000:3b:00.8"));
  CHECK_FALSE(NormalizeGpuAddress("0x2324"));
  CHECK_FALSE(NormalizeGpuAddress(""));
}

}  // TEST_SUITE

}  // namespace gpuf
