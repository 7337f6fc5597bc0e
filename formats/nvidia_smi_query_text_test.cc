#include "formats/nvidia_smi_query_text.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("nvidia_smi_query_text") {

TEST_CASE("ParseNvidiaSmiQueryText: a full report, two GPUs") {
  NvidiaSmiXml parsed = ParseNvidiaSmiQueryText(
      "==============NVSMI LOG==============\n"
      "\n"
      "Timestamp                                 : Tue Jan 30 10:01:02 2024\n"
      "Driver Version                            : 535.129.03\n"
      "CUDA Version                              : 12.2\n"
      "\n"
      "Attached GPUs                             : 2\n"
      "GPU 00000000:18:00.0\n"
      "    Product Name                          : NVIDIA H100 80GB HBM3\n"
      "    Persistence Mode                      : Disabled\n"
      "    MIG Mode\n"
      "        Current                           : Disabled\n"
      "        Pending                           : Enabled\n"
      "    Serial Number                         : 1654922007785\n"
      "    GPU UUID                              : GPU-8c141868-e051-2def-84a2-369843042084\n"
      "    Minor Number                          : 0\n"
      "    Fabric\n"
      "        State                             : In Progress\n"
      "        Status                            : N/A\n"
      "    PCI\n"
      "        Bus                               : 0x18\n"
      "        Bus Id                            : 00000000:18:00.0\n"
      "    Retired Pages\n"
      "        Single Bit ECC                    : N/A\n"
      "        Double Bit ECC                    : N/A\n"
      "        Pending Page Blacklist            : N/A\n"
      "    Remapped Rows\n"
      "        Correctable Error                 : 1\n"
      "        Uncorrectable Error               : 0\n"
      "        Pending                           : Yes\n"
      "        Remapping Failure Occurred        : No\n"
      "        Bank Remap Availability Histogram\n"
      "            Max                           : 639 bank(s)\n"
      "\n"
      "GPU 00000000:2A:00.0\n"
      "    Product Name                          : NVIDIA H100 80GB HBM3\n"
      "    GPU UUID                              : GPU-f2758f58-8374-9889-a19b-0101c2188368\n"
      "    Fabric\n"
      "        State                             : Completed\n"
      "        Status                            : Success\n");
  CHECK(parsed.warnings.empty());
  CHECK(parsed.driver_version == "535.129.03");
  CHECK(parsed.cuda_version == "12.2");
  CHECK(parsed.attached_gpus == 2);
  REQUIRE(parsed.gpus.size() == 2);
  const NvidiaSmiGpu& a = parsed.gpus[0];
  CHECK(a.line == 8);
  CHECK(a.pci_bus_id == "0000:18:00.0");
  CHECK(a.product_name == "NVIDIA H100 80GB HBM3");
  CHECK(a.uuid == "GPU-8c141868-e051-2def-84a2-369843042084");
  CHECK(a.serial == "1654922007785");
  CHECK(a.minor_number == 0);
  CHECK(a.persistence_mode == "Disabled");
  CHECK(a.mig_current == "Disabled");
  CHECK(a.mig_pending == "Enabled");
  CHECK(a.fabric_state == "In Progress");
  CHECK_FALSE(a.fabric_status.has_value());
  CHECK_FALSE(a.retired_pages.single_bit_count.has_value());
  CHECK_FALSE(a.retired_pages.pending.has_value());
  CHECK(a.remapped_rows.correctable == 1);
  CHECK(a.remapped_rows.uncorrectable == 0);
  CHECK(a.remapped_rows.pending == true);
  CHECK(a.remapped_rows.failure == false);
  const NvidiaSmiGpu& b = parsed.gpus[1];
  CHECK(b.pci_bus_id == "0000:2a:00.0");
  CHECK(b.uuid == "GPU-f2758f58-8374-9889-a19b-0101c2188368");
  CHECK(b.fabric_state == "Completed");
  CHECK(b.fabric_status == "Success");
}

TEST_CASE("ParseNvidiaSmiQueryText: a pasted fragment without the GPU header is a GPU of unknown identity") {
  NvidiaSmiXml parsed = ParseNvidiaSmiQueryText(
      "Fabric\n"
      "     State                             : In Progress\n"
      "     Status                            : N/A\n"
      "     CliqueId                          : N/A\n");
  REQUIRE(parsed.gpus.size() == 1);
  CHECK(parsed.gpus[0].line == 2);
  CHECK(parsed.gpus[0].fabric_state == "In Progress");
  CHECK_FALSE(parsed.gpus[0].uuid.has_value());
  CHECK_FALSE(parsed.gpus[0].pci_bus_id.has_value());
}

TEST_CASE("ParseNvidiaSmiQueryText: `grep -A2 Fabric` over eight GPUs: a field again is the next GPU") {
  std::string text;
  for (int i = 0; i < 3; ++i) text += "    Fabric\n        State : Completed\n        Status : Success\n--\n";
  NvidiaSmiXml parsed = ParseNvidiaSmiQueryText(text);
  REQUIRE(parsed.gpus.size() == 3);
  for (const auto& g : parsed.gpus) CHECK(g.fabric_state == "Completed");
}

TEST_CASE("ParseNvidiaSmiQueryText: odd values are warnings, not facts") {
  NvidiaSmiXml parsed = ParseNvidiaSmiQueryText(
      "GPU 00000000:01:00.0\n"
      "    Minor Number                          : zero\n"
      "    Remapped Rows\n"
      "        Pending                           : Maybe\n");
  REQUIRE(parsed.gpus.size() == 1);
  CHECK_FALSE(parsed.gpus[0].minor_number.has_value());
  CHECK_FALSE(parsed.gpus[0].remapped_rows.pending.has_value());
  REQUIRE(parsed.warnings.size() == 2);
  CHECK(parsed.warnings[0].line == 2);
  CHECK(parsed.warnings[0].message == "Minor Number: expected a number, got 'zero'");
  CHECK(parsed.warnings[1].message == "Remapped Rows/Pending: expected Yes or No, got 'Maybe'");
}

TEST_CASE("ParseNvidiaSmiQueryText: only the report's top lines are no GPU") {
  CHECK(ParseNvidiaSmiQueryText("Driver Version : 535.129.03\nAttached GPUs : 8\n").gpus.empty());
  CHECK(ParseNvidiaSmiQueryText("Persistence Mode : Enabled\n").gpus.size() == 1);
}

}  // TEST_SUITE

}  // namespace gpuf
