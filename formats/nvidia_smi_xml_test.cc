#include "formats/nvidia_smi_xml.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

namespace {

constexpr char kV11A10g[] = "formats/nvidia-smi-qx_v11_a10g-remapped-rows_driver515_telegraf.xml";
constexpr char kV11T4[] = "formats/nvidia-smi-qx_v11_tesla-t4-retired-pages_driver515_telegraf.xml";
constexpr char kV12A100[] = "formats/nvidia-smi-qx_v12_a100-mig-enabled_driver535_telegraf.xml";
constexpr char kV13A5000[] = "formats/nvidia-smi-qx_v13_dual-a5000-driver590_telegraf-ELIDED.xml";

std::string Warnings(const NvidiaSmiXml& parsed) {
  std::string text;
  for (const auto& w : parsed.warnings) text += std::to_string(w.line) + ": " + w.message + "\n";
  return text;
}

}  // namespace

TEST_SUITE("nvidia_smi_xml") {

TEST_CASE("ParseNvidiaSmiXml: v11 A10G with remapped rows and N/A retired pages") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(test::Fixture(kV11A10g));
  CHECK(Warnings(parsed) == "");
  CHECK(parsed.schema_version == 11);
  CHECK(parsed.driver_version == "515.105.01");
  CHECK(parsed.cuda_version == "11.7");
  CHECK(parsed.attached_gpus == 1);
  REQUIRE(parsed.gpus.size() == 1);
  const NvidiaSmiGpu& gpu = parsed.gpus[0];
  CHECK(gpu.line == 8);
  CHECK(gpu.pci_bus_id == "0000:00:1e.0");
  CHECK(gpu.product_name == "NVIDIA A10G");
  CHECK(gpu.uuid == "GPU-9a9a6c50-2a47-2f51-a902-b82c3b127e94");
  CHECK(gpu.serial == "0000000000000");
  CHECK(gpu.minor_number == 0);
  CHECK(gpu.persistence_mode == "Disabled");
  CHECK_FALSE(gpu.mig_current.has_value());
  CHECK_FALSE(gpu.mig_pending.has_value());
  CHECK_FALSE(gpu.fabric_state.has_value());  // v11 has no <fabric>
  CHECK_FALSE(gpu.fabric_status.has_value());
  CHECK_FALSE(gpu.retired_pages.single_bit_count.has_value());
  CHECK_FALSE(gpu.retired_pages.double_bit_count.has_value());
  CHECK_FALSE(gpu.retired_pages.pending.has_value());
  CHECK(gpu.remapped_rows.correctable == 0);
  CHECK(gpu.remapped_rows.uncorrectable == 0);
  CHECK(gpu.remapped_rows.pending == false);
  CHECK(gpu.remapped_rows.failure == false);
}

TEST_CASE("ParseNvidiaSmiXml: v11 T4 with retired pages and N/A remapped rows") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(test::Fixture(kV11T4));
  CHECK(Warnings(parsed) == "");
  CHECK(parsed.schema_version == 11);
  REQUIRE(parsed.gpus.size() == 1);
  const NvidiaSmiGpu& gpu = parsed.gpus[0];
  CHECK(gpu.product_name == "Tesla T4");
  CHECK(gpu.uuid == "GPU-d37e67a5-91dd-3774-a5cb-99096249601a");
  CHECK(gpu.retired_pages.single_bit_count == 0);
  CHECK(gpu.retired_pages.double_bit_count == 0);
  CHECK(gpu.retired_pages.pending == false);
  CHECK_FALSE(gpu.remapped_rows.correctable.has_value());
  CHECK_FALSE(gpu.remapped_rows.uncorrectable.has_value());
  CHECK_FALSE(gpu.remapped_rows.pending.has_value());
  CHECK_FALSE(gpu.remapped_rows.failure.has_value());
}

TEST_CASE("ParseNvidiaSmiXml: v12 A100 with MIG, attached_gpus counts GPUs not printed") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(test::Fixture(kV12A100));
  CHECK(Warnings(parsed) == "");
  CHECK(parsed.schema_version == 12);
  CHECK(parsed.driver_version == "535.54.03");
  CHECK(parsed.cuda_version == "12.2");
  CHECK(parsed.attached_gpus == 4);
  REQUIRE(parsed.gpus.size() == 1);
  const NvidiaSmiGpu& gpu = parsed.gpus[0];
  CHECK(gpu.pci_bus_id == "0000:01:00.0");
  CHECK(gpu.product_name == "NVIDIA A100-SXM4-80GB");
  CHECK(gpu.uuid == "GPU-513536b6-7d19-9063-b049-1e69664bb298");
  CHECK(gpu.serial == "1650522003820");
  CHECK(gpu.minor_number == 1);
  CHECK(gpu.mig_current == "Enabled");
  CHECK(gpu.mig_pending == "Enabled");
  CHECK_FALSE(gpu.fabric_state.has_value());  // <state>N/A</state>
  CHECK_FALSE(gpu.fabric_status.has_value());
  CHECK_FALSE(gpu.remapped_rows.correctable.has_value());
}

TEST_CASE("ParseNvidiaSmiXml: v13 with TABs, two GPUs whose minors run against PCI order") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(test::Fixture(kV13A5000));
  CHECK(Warnings(parsed) == "");
  CHECK(parsed.schema_version == 13);
  CHECK(parsed.driver_version == "590.44.01");
  CHECK(parsed.cuda_version == "13.1");
  CHECK(parsed.attached_gpus == 2);
  REQUIRE(parsed.gpus.size() == 2);
  CHECK(parsed.gpus[0].line == 8);
  CHECK(parsed.gpus[0].pci_bus_id == "0000:81:00.0");
  CHECK(parsed.gpus[0].uuid == "GPU-12345678-aaaa-bbbb-cccc-0123456789ab");
  CHECK(parsed.gpus[0].serial == "0123456789012");
  CHECK(parsed.gpus[0].minor_number == 1);
  CHECK(parsed.gpus[0].persistence_mode == "Enabled");
  CHECK(parsed.gpus[1].line == 329);
  CHECK(parsed.gpus[1].pci_bus_id == "0000:c1:00.0");
  CHECK(parsed.gpus[1].product_name == "NVIDIA RTX A5000");
  CHECK(parsed.gpus[1].uuid == "GPU-12345678-aaaa-bbbb-cccc-0123456789cd");
  CHECK(parsed.gpus[1].minor_number == 0);
  CHECK(parsed.gpus[1].remapped_rows.correctable == 0);
  CHECK(parsed.gpus[1].remapped_rows.failure == false);
}

TEST_CASE("ParseNvidiaSmiXml: error text instead of XML gives no GPUs and one warning") {
  SUBCASE("an nvidia-smi error") {
    NvidiaSmiXml parsed = ParseNvidiaSmiXml(
        test::Fixture("formats/nvidia-smi-err_device-handle-unknown-error_with-space_nvidia-docker-1553.txt"));
    CHECK(parsed.gpus.empty());
    CHECK(Warnings(parsed) ==
          "1: not nvidia-smi XML: Unable to determine the device handle for GPU 0000:09:00.0: Unknown Error\n");
  }
  SUBCASE("empty output") {
    CHECK(Warnings(ParseNvidiaSmiXml("")) == "0: not nvidia-smi XML: (empty)\n");
    CHECK(Warnings(ParseNvidiaSmiXml("\n  \n")) == "0: not nvidia-smi XML: (empty)\n");
  }
  SUBCASE("some other XML") {
    CHECK(Warnings(ParseNvidiaSmiXml("\n<html><body/></html>\n")) == "2: not nvidia-smi XML: <html><body/></html>\n");
  }
}

TEST_CASE("ParseNvidiaSmiXml: a document cut short keeps only the GPUs it closed") {
  std::string full = test::Fixture(kV13A5000);
  SUBCASE("inside the second <gpu>") {
    std::string cut = full.substr(0, full.find("<product_name>", full.find("<gpu id=\"00000000:C1:00.0\">")) + 5);
    NvidiaSmiXml parsed = ParseNvidiaSmiXml(cut);
    REQUIRE(parsed.gpus.size() == 1);
    CHECK(parsed.gpus[0].pci_bus_id == "0000:81:00.0");
    CHECK(Warnings(parsed) ==
          "330: XML unreadable from here on: Error parsing start element tag\n"
          "329: gpu: cut short, left out\n");
  }
  SUBCASE("right after the first </gpu>") {
    std::string cut = full.substr(0, full.find("</gpu>") + 6);
    NvidiaSmiXml parsed = ParseNvidiaSmiXml(cut);
    REQUIRE(parsed.gpus.size() == 1);
    CHECK(parsed.gpus[0].minor_number == 1);
    CHECK(Warnings(parsed) == "327: XML unreadable from here on: Start-end tags mismatch\n");
  }
}

TEST_CASE("ParseNvidiaSmiXml: text printed around the XML becomes warnings") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(
      "Unable to determine the device handle for GPU0000:07:00.0: Unknown Error\n"
      "<?xml version=\"1.0\" ?>\n"
      "<nvidia_smi_log><attached_gpus>2</attached_gpus>\n"
      "<gpu id=\"00000000:3B:00.0\"><minor_number>3</minor_number></gpu>\n"
      "</nvidia_smi_log>\n"
      "trailing words\n");
  REQUIRE(parsed.gpus.size() == 1);
  CHECK(parsed.gpus[0].pci_bus_id == "0000:3b:00.0");  // from the id attribute when <pci> is absent
  CHECK(parsed.gpus[0].minor_number == 3);
  CHECK(parsed.schema_version == 0);
  CHECK(Warnings(parsed) ==
        "1: text outside the XML: Unable to determine the device handle for GPU0000:07:00.0: Unknown Error\n"
        "6: text outside the XML: trailing words\n");
}

TEST_CASE("ParseNvidiaSmiXml: sentinels are unknown, odd values are warnings") {
  NvidiaSmiXml parsed = ParseNvidiaSmiXml(
      "<nvidia_smi_log>\n"
      "<driver_version>[N/A]</driver_version>\n"
      "<gpu id=\"nonsense\">\n"
      "  <serial>[Not Supported]</serial>\n"
      "  <uuid>Unknown Error</uuid>\n"
      "  <minor_number>\n    7\n  </minor_number>\n"
      "  <remapped_rows>\n"
      "    <remapped_row_corr>many</remapped_row_corr>\n"
      "    <remapped_row_pending>Maybe</remapped_row_pending>\n"
      "    <remapped_row_failure>Yes</remapped_row_failure>\n"
      "  </remapped_rows>\n"
      "</gpu>\n"
      "</nvidia_smi_log>\n");
  CHECK_FALSE(parsed.driver_version.has_value());
  REQUIRE(parsed.gpus.size() == 1);
  const NvidiaSmiGpu& gpu = parsed.gpus[0];
  CHECK_FALSE(gpu.pci_bus_id.has_value());
  CHECK_FALSE(gpu.serial.has_value());
  CHECK_FALSE(gpu.uuid.has_value());
  CHECK(gpu.minor_number == 7);
  CHECK_FALSE(gpu.remapped_rows.correctable.has_value());
  CHECK_FALSE(gpu.remapped_rows.pending.has_value());
  CHECK(gpu.remapped_rows.failure == true);
  CHECK(Warnings(parsed) ==
        "3: gpu: unreadable PCI bus id 'nonsense'\n"
        "10: remapped_row_corr: expected a number, got 'many'\n"
        "11: remapped_row_pending: expected Yes or No, got 'Maybe'\n");
}


}  // TEST_SUITE

}  // namespace gpuf
