#include "formats/proc_nvidia.h"

#include <algorithm>
#include <charconv>

#include "common/pci_role.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

template <typename Int>
bool ParseInt(std::string_view text, Int& out, int base = 10) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "565.57.01", "555.58", "384.98": two or three dot-separated numbers.
bool LooksLikeDriverVersion(std::string_view word) {
  int parts = 0;
  while (true) {
    size_t dot = word.find('.');
    std::string_view part = word.substr(0, dot);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos) return false;
    ++parts;
    if (dot == std::string_view::npos) return parts >= 2 && parts <= 3;
    word.remove_prefix(dot + 1);
  }
}

// The build date after the version is in the build host's locale, so the
// version is the first version-shaped word, never a position.
std::optional<std::string> DriverVersionIn(std::string_view banner) {
  size_t at = 0;
  while (at < banner.size()) {
    size_t begin = banner.find_first_not_of(" \t", at);
    if (begin == std::string_view::npos) break;
    size_t end = std::min(banner.find_first_of(" \t", begin), banner.size());
    std::string_view word = banner.substr(begin, end - begin);
    if (LooksLikeDriverVersion(word)) return std::string(word);
    at = end;
  }
  return std::nullopt;
}

void Warn(std::vector<ParseWarning>& warnings, int line, std::string_view what, std::string_view text) {
  warnings.push_back({line, std::string(what) + ": " + std::string(text)});
}

}  // namespace

NvidiaDriverVersion ParseNvidiaDriverVersion(std::string_view text) {
  NvidiaDriverVersion parsed;
  bool banner_seen = false;
  ForEachLine(text, [&](int number, std::string_view line) {
    const std::string_view nvrm = "NVRM version:";
    if (Trim(line, " \t").empty() || StartsWith(line, "GCC version:")) return;
    if (!StartsWith(line, nvrm)) {
      Warn(parsed.warnings, number, "unexpected line", line);
      return;
    }
    banner_seen = true;
    std::string_view banner = line.substr(nvrm.size());
    parsed.version = DriverVersionIn(banner);
    parsed.open_module = banner.find("Open Kernel Module") != std::string_view::npos;
    if (!parsed.version) Warn(parsed.warnings, number, "no driver version in", line);
  });
  if (!banner_seen) parsed.warnings.push_back({0, "no 'NVRM version:' line"});
  return parsed;
}

NvidiaGpuInformation ParseNvidiaGpuInformation(std::string_view text) {
  NvidiaGpuInformation info;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (Trim(line, " \t").empty()) return;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      Warn(info.warnings, number, "no ':' in", line);
      return;
    }
    std::string_view key = Trim(line.substr(0, colon), " \t");
    std::string value(Trim(line.substr(colon + 1), " \t"));
    auto number_into = [&](std::optional<int64_t>& field) {
      int64_t n = 0;
      if (ParseInt(value, n)) field = n;
      else Warn(info.warnings, number, std::string(key) + ": not a number", "'" + value + "'");
    };
    if (key == "Model") info.model = value;
    else if (key == "IRQ") number_into(info.irq);
    else if (key == "GPU UUID") info.uuid = value;
    else if (key == "Video BIOS") info.video_bios = value;
    else if (key == "Bus Type") info.bus_type = value;
    else if (key == "Bus Location") info.bus_location = value;
    else if (key == "Device Minor") number_into(info.device_minor);
    else if (key == "GPU Excluded" || key == "Blacklisted") {
      if (value == "Yes" || value == "No") info.excluded = value == "Yes";
      else Warn(info.warnings, number, std::string(key) + ": expected Yes or No", "'" + value + "'");
    }
  });
  return info;
}

ProcDevices ParseProcDevices(std::string_view text) {
  ProcDevices devices;
  enum { kBefore, kCharacter, kAfter } section = kBefore;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (section == kAfter || Trim(line, " \t").empty()) return;
    if (line == "Character devices:") {
      section = kCharacter;
      return;
    }
    if (line == "Block devices:") {
      section = kAfter;
      return;
    }
    std::string_view entry = Trim(line, " \t");
    size_t space = entry.find(' ');
    int major = 0;
    if (section != kCharacter || space == std::string_view::npos || !ParseInt(entry.substr(0, space), major)) {
      Warn(devices.warnings, number, section == kCharacter ? "not '<major> <name>'" : "outside 'Character devices:'",
           line);
      return;
    }
    devices.character_majors.emplace(std::string(Trim(entry.substr(space + 1), " \t")), major);
  });
  if (section == kBefore) devices.warnings.push_back({0, "no 'Character devices:' section"});
  return devices;
}

PciTable ParsePciTable(std::string_view text) {
  PciTable table;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (number == 1 && !StartsWith(line, "# gpuforensics pci v1:")) {
      Warn(table.warnings, number, "expected the '# gpuforensics pci v1:' header", line);
    }
    if (line.empty() || line[0] == '#') return;
    std::vector<std::string_view> f = SplitTabs(line);
    if (f.size() != 4 || f[0].empty()) {
      Warn(table.warnings, number, "expected address, vendor, device, class", line);
      return;
    }
    PciFunction row{number, std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]), ""};
    std::optional<std::string_view> role = PciRole(row.pci_class);
    row.role = std::string(role.value_or("other"));
    // An unreadable class leaves the function in the table: it still proves
    // an NVIDIA device was on the bus.
    if (!role) Warn(table.warnings, number, "unreadable class", "'" + row.pci_class + "'");
    table.rows.push_back(std::move(row));
  });
  if (text.empty()) table.warnings.push_back({0, "expected the '# gpuforensics pci v1:' header: (empty)"});
  return table;
}

}  // namespace gpuf
