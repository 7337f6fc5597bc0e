#include "analyzer/rules/subject_keys.h"

#include <algorithm>
#include <charconv>

#include "common/text_lines.h"
#include "formats/pci_address.h"

namespace gpuf {

namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && AsciiLower(text.substr(0, prefix.size())) == prefix;
}

std::optional<int64_t> ParseNumber(std::string_view text) {
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

constexpr std::string_view kGpuFields[] = {"gpu", "bus", "pci", "uuid", "device", "minor", "index", "serial"};
constexpr std::string_view kContainerFields[] = {"container", "container_id"};

bool Overlaps(const GpuNames& a, const GpuNames& b) {
  return (!a.bus.empty() && a.bus == b.bus) || (!a.uuid.empty() && a.uuid == b.uuid) ||
         (a.minor && a.minor == b.minor) || (!a.serial.empty() && a.serial == b.serial);
}

// A serial that names one board: boards without one print "N/A" or zeros,
// which would join every GPU into one.
std::string UsableSerial(std::string_view serial) {
  if (serial.find_first_not_of("0") == std::string_view::npos) return "";
  if (serial.find_first_not_of("0123456789ABCDEFabcdef-") != std::string_view::npos) return "";
  return std::string(serial);
}

void Merge(GpuNames& into, const GpuNames& from) {
  if (into.bus.empty()) into.bus = from.bus;
  if (into.uuid.empty()) into.uuid = from.uuid;
  if (!into.minor) into.minor = from.minor;
  if (!into.index) into.index = from.index;
  if (into.serial.empty()) into.serial = from.serial;
}

}  // namespace

std::string GpuDirectory::KeyOf(const GpuNames& gpu) { return !gpu.bus.empty() ? gpu.bus : gpu.uuid; }

bool SameContainer(std::string_view a, std::string_view b) {
  std::string x = AsciiLower(a), y = AsciiLower(b);
  if (x.size() > y.size()) std::swap(x, y);
  return x.size() >= 12 ? y.compare(0, x.size(), x) == 0 : x == y;
}

void GpuDirectory::Add(const GpuNames& names) {
  GpuNames normal;
  if (!names.bus.empty()) normal.bus = NormalizeGpuAddress(names.bus).value_or("");
  if (StartsWithNoCase(names.uuid, "gpu-")) normal.uuid = AsciiLower(names.uuid);
  normal.minor = names.minor;
  normal.index = names.index;
  normal.serial = UsableSerial(names.serial);
  if (normal.bus.empty() && normal.uuid.empty() && !normal.minor && normal.serial.empty()) return;
  // Records this one joins become one.
  std::vector<GpuNames> kept;
  for (auto& gpu : gpus_) {
    if (Overlaps(gpu, normal)) {
      Merge(normal, gpu);
    } else {
      kept.push_back(std::move(gpu));
    }
  }
  kept.push_back(std::move(normal));
  gpus_ = std::move(kept);
}

std::optional<std::string> GpuDirectory::Key(std::string_view field, std::string_view value) const {
  if (field == "minor" || field == "index") {
    std::optional<int64_t> n = ParseNumber(value);
    if (!n) return std::nullopt;
    for (const auto& gpu : gpus_) {
      if ((field == "minor" ? gpu.minor : gpu.index) == n) return KeyOf(gpu);
    }
    return std::string(field) + ":" + std::to_string(*n);
  }
  if (field == "serial") {
    std::string serial = UsableSerial(value);
    if (serial.empty()) return std::nullopt;
    for (const auto& gpu : gpus_) {
      if (gpu.serial == serial) return KeyOf(gpu);
    }
    return "serial:" + serial;
  }
  if (StartsWithNoCase(value, "gpu-")) {
    std::string uuid = AsciiLower(value);
    for (const auto& gpu : gpus_) {
      if (gpu.uuid == uuid) return KeyOf(gpu);
    }
    return uuid;
  }
  if (StartsWithNoCase(value, "mig-")) return AsciiLower(value);
  // GKE's plugin names a device by its node, /dev/nvidiaN: minor N.
  if (value.size() > 6 && value.substr(0, 6) == "nvidia" && ParseNumber(value.substr(6))) {
    return Key("minor", value.substr(6));
  }
  return NormalizeGpuAddress(value);
}

void GpuDirectory::Tag(std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    row.gpu.reset();
    row.container.reset();
    for (std::string_view field : kGpuFields) {
      std::optional<std::string> value = row.Field(std::string(field));
      if (value && (row.gpu = Key(field, *value))) break;
    }
    for (std::string_view field : kContainerFields) {
      std::optional<std::string> value = row.Field(std::string(field));
      if (value && !value->empty()) {
        row.container = AsciiLower(*value);
        break;
      }
    }
  }
}

Result<GpuDirectory> GpuDirectory::Load(Database& db, int64_t bundle_id) {
  GpuDirectory directory;
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT d.bus_location, d.uuid, d.device_minor, NULL, NULL FROM driver_gpus d JOIN artifacts a "
      "USING (artifact_id) WHERE a.bundle_id = ?1 "
      "UNION ALL SELECT g.pci_bus_id, g.uuid, g.minor_number, g.gpu_index, g.serial FROM gpus g JOIN artifacts a "
      "USING (artifact_id) WHERE a.bundle_id = ?1 "
      "UNION ALL SELECT p.address, NULL, NULL, NULL, NULL FROM pci_devices p JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = ?1 AND p.role = 'gpu'"));
  s.Bind(1, bundle_id);
  while (s.Step()) {
    GpuNames names;
    names.bus = s.ColumnIsNull(0) ? "" : s.ColumnText(0);
    names.uuid = s.ColumnIsNull(1) ? "" : s.ColumnText(1);
    if (!s.ColumnIsNull(2)) names.minor = s.ColumnInt(2);
    if (!s.ColumnIsNull(3)) names.index = s.ColumnInt(3);
    if (!s.ColumnIsNull(4)) names.serial = s.ColumnText(4);
    directory.Add(names);
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return directory;
}

}  // namespace gpuf
