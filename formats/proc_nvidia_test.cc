#include "formats/proc_nvidia.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

namespace {

// The fixtures are terminal transcripts: keep what the command printed, from
// the line after its prompt line up to the next prompt line (or the end).
std::string OutputAfter(const std::string& text, const std::string& prompt) {
  size_t start = text.find(prompt + "\n");
  REQUIRE(start != std::string::npos);
  return text.substr(start + prompt.size() + 1);
}

std::string Fixture(const std::string& name) { return test::Fixture("formats/" + name); }

std::string Warnings(const std::vector<ParseWarning>& warnings) {
  std::string text;
  for (const auto& w : warnings) text += std::to_string(w.line) + ": " + w.message + "\n";
  return text;
}

}  // namespace

TEST_SUITE("proc_nvidia") {

TEST_CASE("ParseNvidiaDriverVersion: proprietary module, two spaces around the version") {
  SUBCASE("384") {
    NvidiaDriverVersion v = ParseNvidiaDriverVersion(OutputAfter(
        Fixture("proc-driver-nvidia-version_proprietary_neofetch-876.txt"), "$ cat /proc/driver/nvidia/version"));
    CHECK(v.version == "384.98");
    CHECK(v.open_module == false);
    CHECK(Warnings(v.warnings) == "");
  }
  SUBCASE("580, the module left loaded under a newer NVML") {
    NvidiaDriverVersion v = ParseNvidiaDriverVersion(
        OutputAfter(Fixture("proc-driver-nvidia-version_proprietary-vs-nvml-mismatch_truenas-19.txt"),
                    "root@truenas[/]# cat /proc/driver/nvidia/version"));
    CHECK(v.version == "580.173.02");
    CHECK(v.open_module == false);
    CHECK(Warnings(v.warnings) == "");
  }
}

TEST_CASE("ParseNvidiaDriverVersion: open module, with an English and a localised build date") {
  NvidiaDriverVersion english =
      ParseNvidiaDriverVersion(Fixture("proc-driver-nvidia-version_open-module_nixgl-186.txt"));
  CHECK(english.version == "565.57.01");
  CHECK(english.open_module == true);
  CHECK(Warnings(english.warnings) == "");
  NvidiaDriverVersion localised =
      ParseNvidiaDriverVersion(Fixture("proc-driver-nvidia-version_open-module-localized-date_hyprland-6715.txt"));
  CHECK(localised.version == "555.58");
  CHECK(localised.open_module == true);
  CHECK(Warnings(localised.warnings) == "");
}

TEST_CASE("ParseNvidiaDriverVersion: not the version file") {
  NvidiaDriverVersion v = ParseNvidiaDriverVersion("cat: /proc/driver/nvidia/version: No such file or directory\n");
  CHECK_FALSE(v.version.has_value());
  CHECK_FALSE(v.open_module.has_value());
  CHECK(Warnings(v.warnings) ==
        "1: unexpected line: cat: /proc/driver/nvidia/version: No such file or directory\n"
        "0: no 'NVRM version:' line\n");
  NvidiaDriverVersion no_version = ParseNvidiaDriverVersion("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n");
  CHECK_FALSE(no_version.version.has_value());
  CHECK(Warnings(no_version.warnings) == "1: no driver version in: NVRM version: NVIDIA UNIX x86_64 Kernel Module\n");
}

TEST_CASE("ParseNvidiaGpuInformation: the current driver's keys, tabs and spaces around values") {
  // Layout of kernel-open/nvidia/nv-procfs.c (seq_printf "Model: \t\t %s\n", ...).
  NvidiaGpuInformation info = ParseNvidiaGpuInformation(
      "Model: \t\t NVIDIA H100 80GB HBM3\n"
      "IRQ:   \t\t 211\n"
      "GPU UUID: \t GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60\n"
      "Video BIOS: \t 96.00.99.00.01\n"
      "Bus Type: \t PCIe\n"
      "DMA Size: \t 52 bits\n"
      "DMA Mask: \t 0xfffffffffffff\n"
      "Bus Location: \t 0000:18:00.0\n"
      "Device Minor: \t 3\n"
      "GPU Firmware: \t 535.161.07\n"
      "GPU Excluded:\t No\n");
  CHECK(info.model == "NVIDIA H100 80GB HBM3");
  CHECK(info.irq == 211);
  CHECK(info.uuid == "GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60");
  CHECK(info.video_bios == "96.00.99.00.01");
  CHECK(info.bus_type == "PCIe");
  CHECK(info.bus_location == "0000:18:00.0");
  CHECK(info.device_minor == 3);
  CHECK(info.excluded == false);
  CHECK(Warnings(info.warnings) == "");
}

TEST_CASE("ParseNvidiaGpuInformation: an older driver, a GPU not initialised, and damage") {
  NvidiaGpuInformation info = ParseNvidiaGpuInformation(
      "Model: \t\t Tesla V100-SXM2-16GB\n"
      "IRQ:   \t\t many\n"
      "Video BIOS: \t ??.??.??.??.??\n"
      "Bus Location: \t 0000:3b:00.0\n"
      "Device Minor: \t 0\n"
      "Blacklisted:\t Yes\n"
      "garbage\n");
  CHECK(info.model == "Tesla V100-SXM2-16GB");
  CHECK_FALSE(info.irq.has_value());
  CHECK_FALSE(info.uuid.has_value());
  CHECK(info.video_bios == "??.??.??.??.??");
  CHECK(info.device_minor == 0);
  CHECK(info.excluded == true);
  CHECK(Warnings(info.warnings) == "2: IRQ: not a number: 'many'\n7: no ':' in: garbage\n");
}

TEST_CASE("ParseProcDevices: character majors only, dynamic NVIDIA majors included") {
  // Layout of fs/char_dev.c chrdev_show ("%3d %s\n"), NVIDIA names as on a GPU node.
  ProcDevices devices = ParseProcDevices(
      "Character devices:\n"
      "  1 mem\n"
      "  4 /dev/vc/0\n"
      "  4 tty\n"
      " 10 misc\n"
      "195 nvidia-frontend\n"
      "226 drm\n"
      "231 infiniband_mad\n"
      "235 nvidia-caps\n"
      "239 infiniband_mad\n"
      "510 nvidia-uvm\n"
      "511 nvidia-nvswitch\n"
      "\n"
      "Block devices:\n"
      "  7 loop\n"
      "259 blkext\n");
  CHECK(Warnings(devices.warnings) == "");
  CHECK(devices.character_majors.size() == 10);
  CHECK(devices.character_majors.at("mem") == 1);
  CHECK(devices.character_majors.at("/dev/vc/0") == 4);
  CHECK(devices.character_majors.at("nvidia-frontend") == 195);
  CHECK(devices.character_majors.at("nvidia-caps") == 235);
  CHECK(devices.character_majors.at("nvidia-uvm") == 510);
  CHECK(devices.character_majors.at("nvidia-nvswitch") == 511);
  CHECK(devices.character_majors.at("infiniband_mad") == 231);
  CHECK(devices.character_majors.count("loop") == 0);
}

TEST_CASE("ParseProcDevices: text outside the sections and bad lines are warnings") {
  ProcDevices devices = ParseProcDevices("hello\nCharacter devices:\n195 nvidia\nx nvidia-uvm\n");
  CHECK(devices.character_majors.size() == 1);
  CHECK(devices.character_majors.at("nvidia") == 195);
  CHECK(Warnings(devices.warnings) ==
        "1: outside 'Character devices:': hello\n"
        "4: not '<major> <name>': x nvidia-uvm\n");
  CHECK(Warnings(ParseProcDevices("").warnings) == "0: no 'Character devices:' section\n");
}

TEST_CASE("ParsePciTable: roles from the PCI class") {
  // First two rows as tests/collect_fakehost_test.cc expects the collector to write them.
  PciTable table = ParsePciTable(
      "# gpuforensics pci v1: address vendor device class\n"
      "0000:18:00.0\t0x10de\t0x2324\t0x030200\n"
      "0000:2a:00.0\t0x10de\t0x2324\t0x030000\n"
      "0000:05:00.0\t0x10de\t0x22a3\t0x068000\n"
      "0000:01:00.1\t0x10de\t0x10f0\t0x040300\n"
      "0000:01:00.2\t0x10de\t0x1ad8\t0x0c0330\n");
  CHECK(Warnings(table.warnings) == "");
  REQUIRE(table.rows.size() == 5);
  CHECK(table.rows[0].line == 2);
  CHECK(table.rows[0].address == "0000:18:00.0");
  CHECK(table.rows[0].vendor == "0x10de");
  CHECK(table.rows[0].device == "0x2324");
  CHECK(table.rows[0].pci_class == "0x030200");
  CHECK(table.rows[0].role == "gpu");
  CHECK(table.rows[1].role == "gpu");
  CHECK(table.rows[2].role == "nvswitch");
  CHECK(table.rows[3].role == "audio");
  CHECK(table.rows[4].role == "other");
}

TEST_CASE("ParsePciTable: damaged rows and a missing header") {
  PciTable table = ParsePciTable(
      "0000:18:00.0\t0x10de\t0x2324\t0x030200\n"
      "0000:19:00.0\t0x10de\t\t\n"
      "0000:1a:00.0 0x10de 0x2324 0x030200\n");
  REQUIRE(table.rows.size() == 2);
  CHECK(table.rows[0].role == "gpu");
  CHECK(table.rows[1].role == "other");
  CHECK(Warnings(table.warnings) ==
        "1: expected the '# gpuforensics pci v1:' header: 0000:18:00.0\t0x10de\t0x2324\t0x030200\n"
        "2: unreadable class: ''\n"
        "3: expected address, vendor, device, class: 0000:1a:00.0 0x10de 0x2324 0x030200\n");
  CHECK(Warnings(ParsePciTable("").warnings) == "0: expected the '# gpuforensics pci v1:' header: (empty)\n");
}

}  // TEST_SUITE

}  // namespace gpuf
