#include "importer/lspci_table.h"

#include <doctest/doctest.h>

#include "formats/proc_nvidia.h"

namespace gpuf {

TEST_SUITE("lspci_table") {
  TEST_CASE("LspciToPciTable: -nn rows, plain rows and an NVSwitch read as the PCI table the loader parses") {
    Converted c = LspciToPciTable(
        "0000:18:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)\n"
        "3b:00.0 3D controller: NVIDIA Corporation GV100GL [Tesla V100 PCIe 32GB] (rev a1)\n"
        "05:00.0 Bridge: NVIDIA Corporation Device 22a3 (rev a1)\n"
        "00:1f.2 SATA controller: Intel Corporation C600/X79 series chipset 6-Port SATA AHCI Controller (rev 06)\n"
        "01:00.1 Audio device: NVIDIA Corporation Device 22bc (rev a1)\n");
    CHECK(c.rows == 4);
    CHECK(c.lines_skipped == 1);
    PciTable table = ParsePciTable(c.text);
    CHECK(table.warnings.empty());
    REQUIRE(table.rows.size() == 4);
    CHECK(table.rows[0].address == "0000:18:00.0");
    CHECK(table.rows[0].device == "0x2330");
    CHECK(table.rows[0].role == "gpu");
    CHECK(table.rows[1].address == "0000:3b:00.0");
    CHECK(table.rows[1].device.empty());
    CHECK(table.rows[1].role == "gpu");
    CHECK(table.rows[2].device == "0x22a3");
    CHECK(table.rows[2].role == "nvswitch");
    CHECK(table.rows[3].role == "audio");
  }

  TEST_CASE("LspciToPciTable: a pasted lspci -nn | grep -i nvidia") {
    PciTable table = ParsePciTable(
        LspciToPciTable(
            "5e:00.0 3D controller [0302]: NVIDIA Corporation GV100GL [Tesla V100S PCIe 32GB] [10de:1df6] (rev a1)\n"
            "d8:00.0 3D controller [0302]: NVIDIA Corporation GV100GL [Tesla V100S PCIe 32GB] [10de:1df6] (rev a1)\n")
            .text);
    CHECK(table.warnings.empty());
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[1].address == "0000:d8:00.0");
    CHECK(table.rows[1].device == "0x1df6");
    CHECK(table.rows[1].pci_class == "0x030200");
  }

  TEST_CASE("LspciToPciTable: a domain as printed, VMD's five digits too, in lower case") {
  PciTable table = ParsePciTable(
      LspciToPciTable("10000:E1:00.0 3D controller [0302]: NVIDIA Corporation Device [10de:2330] (rev a1)\n").text);
  REQUIRE(table.rows.size() == 1);
  CHECK(table.rows[0].address == "10000:e1:00.0");
}

TEST_CASE("LspciToPciTable: lspci -n's numeric rows, other vendors' left out") {
  Converted c = LspciToPciTable(
      "00:00.0 0600: 8086:2020 (rev 04)\n"
      "3b:00.0 0302: 10de:1db6 (rev a1)\n"
      "0000:86:00.0 0300: 10de:20b5 (rev a1) (prog-if 00 [VGA controller])\n"
      "5e:00.0 0200: 15b3:101b\n");
  PciTable table = ParsePciTable(c.text);
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].address == "0000:3b:00.0");
  CHECK(table.rows[0].device == "0x1db6");
  CHECK(table.rows[0].pci_class == "0x030200");
  CHECK(table.rows[1].address == "0000:86:00.0");
  CHECK(table.rows[1].pci_class == "0x030000");
  CHECK(c.lines_skipped == 2);
  CHECK(LspciShowsEveryNvidiaFunction("00:00.0 0600: 8086:2020 (rev 04)\n", ""));
}

TEST_CASE("LspciShowsEveryNvidiaFunction: the whole bus, or what a grep for NVIDIA kept, not a grep for another") {
  CHECK(LspciShowsEveryNvidiaFunction("00:00.0 Host bridge: Intel Corporation Sky Lake-E DMI3 Registers (rev 07)\n"
                                      "00:1f.2 SATA controller: Intel Corporation AHCI (rev 06)\n",
                                      ""));
  const char* intel_vga = "00:02.0 VGA compatible controller: Intel Corporation HD Graphics 630 (rev 04)\n";
  CHECK(LspciShowsEveryNvidiaFunction(intel_vga, "lspci | grep -iE 'vga|nvidia'"));
  CHECK(LspciShowsEveryNvidiaFunction(intel_vga, "lspci -nn -d 10de:"));
  const char* mellanox = "3b:00.0 Ethernet controller: Mellanox Technologies MT28908 Family [ConnectX-6]\n";
  CHECK_FALSE(LspciShowsEveryNvidiaFunction(mellanox, "lspci | grep -i mellanox"));
  CHECK_FALSE(LspciShowsEveryNvidiaFunction(mellanox, ""));
}

TEST_CASE("LspciToPciTable: no NVIDIA function, no rows, and bytes that are no lspci row are skipped") {
    Converted c = LspciToPciTable("00:1f.2 SATA controller: Intel Corporation AHCI (rev 06)\n\xff\xfe garbage: x\n");
    CHECK(c.rows == 0);
    CHECK(c.lines_skipped == 2);
  }

}  // TEST_SUITE

}  // namespace gpuf
