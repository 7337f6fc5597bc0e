// Parses `nvidia-smi -q -x`: the driver's XML report, one <gpu> per device.
//   <gpu id="00000000:01:00.0">
//       <product_name>NVIDIA A100-SXM4-80GB</product_name>
// Only the health and identity fields below are read; every other element is
// ignored, because the schema grows with each driver (v11, v12, v13 so far).
// Every value is text that may be a sentinel ("N/A", "[N/A]", "Not
// Supported", "Unknown Error", ...): sentinels become std::nullopt.
//
// Never fails. When the text is not the XML at all (nvidia-smi printed an
// error instead) the result has no GPUs and one warning
// "not nvidia-smi XML: <first line>". When the XML is cut short (a timeout
// killed nvidia-smi), the <gpu> elements that were closed are kept and a
// warning says where the document ends.
#ifndef GPUF_FORMATS_NVIDIA_SMI_XML_H_
#define GPUF_FORMATS_NVIDIA_SMI_XML_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

// Dynamic page retirement (up to Volta/Turing). On Ampere and later the
// elements are present but every leaf is N/A.
struct RetiredPages {
  std::optional<int64_t> single_bit_count;  // multiple_single_bit_retirement/retired_count
  std::optional<int64_t> double_bit_count;  // double_bit_retirement/retired_count
  std::optional<bool> pending;              // pending_retirement (older: pending_blacklist)
};

// Row remapping (Ampere and later). The whole element is "N/A" before Ampere
// and under some MIG configurations; then every field is unknown.
struct RemappedRows {
  std::optional<int64_t> correctable;    // remapped_row_corr
  std::optional<int64_t> uncorrectable;  // remapped_row_unc
  std::optional<bool> pending;           // remapped_row_pending: Yes means a GPU reset is needed
  std::optional<bool> failure;           // remapped_row_failure: Yes means an RMA candidate
};

struct NvidiaSmiGpu {
  int line = 0;                              // line of the <gpu> tag, 1-based
  std::optional<std::string> pci_bus_id;     // sysfs form "0000:01:00.0"
  std::optional<std::string> product_name;
  std::optional<std::string> uuid;           // "GPU-..."
  std::optional<std::string> serial;
  std::optional<int64_t> minor_number;       // N of /dev/nvidiaN; not the index
  std::optional<std::string> persistence_mode;  // "Enabled" | "Disabled"
  std::optional<std::string> mig_current;    // "Enabled" | "Disabled"
  std::optional<std::string> mig_pending;
  std::optional<std::string> fabric_state;   // v12+: "Not Started", "In Progress", "Completed"
  std::optional<std::string> fabric_status;  // v12+: "Success" or an error text
  RetiredPages retired_pages;
  RemappedRows remapped_rows;
};

struct NvidiaSmiXml {
  int schema_version = 0;  // 11, 12, 13 from the DOCTYPE's "nvsmi_device_vN.dtd"; 0 unknown
  std::optional<std::string> driver_version;  // "535.54.03"
  std::optional<std::string> cuda_version;    // "12.2": the highest the driver supports
  std::optional<int64_t> attached_gpus;       // counts all GPUs, even under `-i`
  std::vector<NvidiaSmiGpu> gpus;
  std::vector<ParseWarning> warnings;
};

NvidiaSmiXml ParseNvidiaSmiXml(std::string_view text);

// True for what nvidia-smi writes where NVML had no value: "N/A", "Not
// Supported", "Unknown Error", ...; newer drivers bracket them ("[N/A]").
bool IsNvidiaSmiSentinel(std::string_view value);

}  // namespace gpuf

#endif  // GPUF_FORMATS_NVIDIA_SMI_XML_H_
