#include "formats/nvidia_smi_xml.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include <pugixml.hpp>

#include "common/text_lines.h"
#include "formats/pci_address.h"

namespace gpuf {

namespace {

constexpr char kRoot[] = "nvidia_smi_log";

template <typename Int>
bool ParseInt(std::string_view text, Int& out, int base = 10) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// Maps byte offsets (pugixml's offset_debug) to 1-based line numbers.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  int At(ptrdiff_t offset) const {
    if (offset < 0) return 0;
    auto it = std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<size_t>(offset));
    return static_cast<int>(it - newlines_.begin()) + 1;
  }

 private:
  std::vector<size_t> newlines_;
};

// Reads leaf values, turning sentinels into nullopt and odd values into warnings.
class Leaves {
 public:
  Leaves(const LineIndex& lines, std::vector<ParseWarning>& warnings) : lines_(lines), warnings_(warnings) {}

  int Line(pugi::xml_node node) const { return lines_.At(node.offset_debug()); }

  std::optional<std::string> Text(pugi::xml_node node) const {
    if (!node) return std::nullopt;
    std::string_view value = Trim(node.text().get());
    if (IsNvidiaSmiSentinel(value)) return std::nullopt;
    return std::string(value);
  }

  std::optional<int64_t> Int(pugi::xml_node node) {
    std::optional<std::string> value = Text(node);
    int64_t number = 0;
    if (!value) return std::nullopt;
    if (ParseInt(*value, number)) return number;
    Warn(node, "expected a number, got '" + *value + "'");
    return std::nullopt;
  }

  std::optional<bool> YesNo(pugi::xml_node node) {
    std::optional<std::string> value = Text(node);
    if (!value) return std::nullopt;
    if (*value == "Yes") return true;
    if (*value == "No") return false;
    Warn(node, "expected Yes or No, got '" + *value + "'");
    return std::nullopt;
  }

  void Warn(pugi::xml_node node, const std::string& message) {
    warnings_.push_back({Line(node), std::string(node.name()) + ": " + message});
  }

 private:
  const LineIndex& lines_;
  std::vector<ParseWarning>& warnings_;
};

// "nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd"" -> 12; telegraf picks its
// schema the same way.
int SchemaVersion(const pugi::xml_document& doc) {
  for (pugi::xml_node node : doc.children()) {
    if (node.type() != pugi::node_doctype) continue;
    std::string_view value = node.value();
    const std::string_view marker = "nvsmi_device_v";
    size_t at = value.find(marker);
    if (at == std::string_view::npos) return 0;
    value.remove_prefix(at + marker.size());
    size_t dot = value.find(".dtd");
    int version = 0;
    return dot != std::string_view::npos && ParseInt(value.substr(0, dot), version) ? version : 0;
  }
  return 0;
}

// pugixml skips text around the document element without a word; an error
// printed next to the XML is evidence, so each such line becomes a warning.
void WarnAboutTextOutside(std::string_view text, const LineIndex& lines, std::vector<ParseWarning>& warnings) {
  size_t start = std::min({text.find("<?xml"), text.find("<!DOCTYPE"), text.find(std::string("<") + kRoot)});
  size_t end = text.rfind(std::string("</") + kRoot + ">");
  auto warn_lines = [&](size_t from, size_t to) {
    int base = lines.At(static_cast<ptrdiff_t>(from)) - 1;
    ForEachLine(text.substr(from, to - from), [&](int number, std::string_view line) {
      if (!Trim(line).empty()) warnings.push_back({base + number, "text outside the XML: " + std::string(Trim(line))});
    });
  };
  warn_lines(0, std::min(start, text.size()));
  if (end != std::string_view::npos) warn_lines(end + sizeof(kRoot) + 2, text.size());
}

ParseWarning NotXml(std::string_view text) {
  ParseWarning warning{0, "not nvidia-smi XML: (empty)"};
  ForEachLine(text, [&](int number, std::string_view line) {
    if (warning.line != 0 || Trim(line).empty()) return;
    warning = {number, "not nvidia-smi XML: " + std::string(Trim(line))};
  });
  return warning;
}

std::optional<std::string> BusId(pugi::xml_node gpu, Leaves& leaves) {
  pugi::xml_node node = gpu.child("pci").child("pci_bus_id");
  std::string raw(node ? Trim(node.text().get()) : Trim(gpu.attribute("id").value()));
  std::optional<std::string> normal = NormalizePciBusId(raw);
  if (!normal) leaves.Warn(gpu, "unreadable PCI bus id '" + raw + "'");
  return normal;
}

NvidiaSmiGpu ReadGpu(pugi::xml_node gpu, Leaves& leaves) {
  NvidiaSmiGpu g;
  g.line = leaves.Line(gpu);
  g.pci_bus_id = BusId(gpu, leaves);
  g.product_name = leaves.Text(gpu.child("product_name"));
  g.uuid = leaves.Text(gpu.child("uuid"));
  g.serial = leaves.Text(gpu.child("serial"));
  g.minor_number = leaves.Int(gpu.child("minor_number"));
  g.persistence_mode = leaves.Text(gpu.child("persistence_mode"));
  g.mig_current = leaves.Text(gpu.child("mig_mode").child("current_mig"));
  g.mig_pending = leaves.Text(gpu.child("mig_mode").child("pending_mig"));
  g.fabric_state = leaves.Text(gpu.child("fabric").child("state"));
  g.fabric_status = leaves.Text(gpu.child("fabric").child("status"));

  pugi::xml_node retired = gpu.child("retired_pages");
  g.retired_pages.single_bit_count = leaves.Int(retired.child("multiple_single_bit_retirement").child("retired_count"));
  g.retired_pages.double_bit_count = leaves.Int(retired.child("double_bit_retirement").child("retired_count"));
  g.retired_pages.pending = leaves.YesNo(retired.child("pending_retirement"));
  if (!g.retired_pages.pending) g.retired_pages.pending = leaves.YesNo(retired.child("pending_blacklist"));

  pugi::xml_node remapped = gpu.child("remapped_rows");
  g.remapped_rows.correctable = leaves.Int(remapped.child("remapped_row_corr"));
  g.remapped_rows.uncorrectable = leaves.Int(remapped.child("remapped_row_unc"));
  g.remapped_rows.pending = leaves.YesNo(remapped.child("remapped_row_pending"));
  g.remapped_rows.failure = leaves.YesNo(remapped.child("remapped_row_failure"));
  return g;
}

}  // namespace

bool IsNvidiaSmiSentinel(std::string_view value) {
  if (value.size() >= 2 && value.front() == '[' && value.back() == ']') value = value.substr(1, value.size() - 2);
  return value.empty() || value == "N/A" || value == "Not Supported" || value == "Unknown Error" ||
         value == "Insufficient Permissions" || value == "Requested functionality has been deprecated";
}

NvidiaSmiXml ParseNvidiaSmiXml(std::string_view text) {
  NvidiaSmiXml parsed;
  pugi::xml_document doc;
  pugi::xml_parse_result result =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8);
  pugi::xml_node root = doc.child(kRoot);
  if (!root) {
    parsed.warnings.push_back(NotXml(text));
    return parsed;
  }
  LineIndex lines(text);
  Leaves leaves(lines, parsed.warnings);
  WarnAboutTextOutside(text, lines, parsed.warnings);
  if (!result) {
    parsed.warnings.push_back(
        {lines.At(result.offset), std::string("XML unreadable from here on: ") + result.description()});
  }
  parsed.schema_version = SchemaVersion(doc);
  parsed.driver_version = leaves.Text(root.child("driver_version"));
  parsed.cuda_version = leaves.Text(root.child("cuda_version"));
  parsed.attached_gpus = leaves.Int(root.child("attached_gpus"));
  for (pugi::xml_node gpu : root.children("gpu")) {
    // A <gpu> the parser never saw closed is missing its later fields; its
    // N/A-looking leaves would read as facts, so it is left out.
    size_t close = text.find("</gpu>", static_cast<size_t>(gpu.offset_debug()));
    if (!result && (close == std::string_view::npos || close >= static_cast<size_t>(result.offset))) {
      leaves.Warn(gpu, "cut short, left out");
      continue;
    }
    parsed.gpus.push_back(ReadGpu(gpu, leaves));
  }
  return parsed;
}

}  // namespace gpuf
