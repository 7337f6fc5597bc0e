#include "importer/lspci_table.h"

#include <re2/re2.h>

#include <string>

#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// lspci's class names for the classes an NVIDIA board has, as pci.ids
// writes them, and their class codes with the programming interface.
struct ClassName {
  std::string_view name;
  std::string_view code;
};
constexpr ClassName kClassNames[] = {
    {"VGA compatible controller", "0x030000"},
    {"3D controller", "0x030200"},
    {"Display controller", "0x038000"},
    {"Bridge", "0x068000"},
    {"Audio device", "0x040300"},
    {"USB controller", "0x0c0330"},
    {"Serial bus controller", "0x0c8000"},
};

std::string ClassCode(std::string_view name, std::string_view bracketed) {
  if (!bracketed.empty()) return "0x" + std::string(bracketed) + "00";
  for (const auto& c : kClassNames) {
    if (c.name == name) return std::string(c.code);
  }
  return "";
}

}  // namespace

Converted LspciToPciTable(std::string_view text) {
  static const RE2 row(
      R"(^\s*(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]) ([0-9A-Za-z][^:\[]*?)(?: \[([0-9a-fA-F]{4})\])?: (NVIDIA Corporation .*)$)",
      BytePatternOptions());
  // `lspci -n`: the class and the ids as numbers only.
  static const RE2 numeric(
      R"(^\s*(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]) ([0-9a-fA-F]{4}): 10de:([0-9a-fA-F]{4})\b.*$)",
      BytePatternOptions());
  static const RE2 ids(R"(\[10de:([0-9a-fA-F]{4})\])", BytePatternOptions());
  static const RE2 unnamed(R"(NVIDIA Corporation Device ([0-9a-fA-F]{4})\b)", BytePatternOptions());
  Converted out;
  out.text = "# gpuforensics pci v1: address vendor device class\n";
  ForEachLine(text, [&](int, std::string_view line) {
    std::string domain, address, class_name, class_id, rest, device;
    if (RE2::FullMatch(line, row, &domain, &address, &class_name, &class_id, &rest)) {
      if (!RE2::PartialMatch(rest, ids, &device)) RE2::PartialMatch(rest, unnamed, &device);
    } else if (!RE2::FullMatch(line, numeric, &domain, &address, &class_id, &device)) {
      ++out.lines_skipped;
      return;
    }
    // As sysfs writes it: lower case, domain 0000 unless printed (a VMD
    // domain has five digits).
    out.text += AsciiLower(domain.empty() ? "0000" : domain) + ":" + AsciiLower(address) + "\t0x10de\t" +
                (device.empty() ? "" : "0x" + AsciiLower(device)) + "\t" + ClassCode(class_name, class_id) + "\n";
    ++out.rows;
  });
  return out;
}

bool LspciShowsEveryNvidiaFunction(std::string_view text, std::string_view command) {
  static const RE2 host_bridge(
      R"((?m)^\s*(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] (?:Host bridge(?: \[0600\])?|0600): )",
      BytePatternOptions());
  static const RE2 nvidia_filter(R"(lspci\b.*(?:-d\s*10de|\bgrep\b.*(?i:nvidia|\bnv\b|10de|vga|3d)))",
                                 BytePatternOptions());
  return RE2::PartialMatch(text, host_bridge) || RE2::PartialMatch(command, nvidia_filter);
}

}  // namespace gpuf
