#include "analyzer/rules/gpu_presence.h"

#include <set>

namespace gpuf {

namespace {

// The host's own NVML at capture: not a saved file, whose time nobody
// knows, and not a container's view. A run that failed outright lists
// nothing and says nothing about which GPU is missing.
constexpr char kHostNvmlLists[] =
    "SELECT a.artifact_id, g.pci_bus_id, g.uuid FROM artifacts a LEFT JOIN gpus g USING (artifact_id) "
    "WHERE a.bundle_id = ?1 AND a.name IN ('host.nvidia_smi_list', 'host.nvidia_smi_query_xml') "
    "AND (a.status = 'ok' OR g.uuid IS NOT NULL)";

// Any listing of the PCI bus: the collector's sysfs walk (which may hold no
// NVIDIA function at all) or a saved lspci.
constexpr char kPciListings[] =
    "SELECT a.artifact_id, p.address FROM artifacts a "
    "LEFT JOIN pci_devices p ON p.artifact_id = a.artifact_id AND p.role = 'gpu' "
    "WHERE a.bundle_id = ?1 AND ((a.name = 'pci.nvidia_functions' AND a.status = 'ok') OR p.address IS NOT NULL)";

struct Listing {
  std::optional<int64_t> artifact_id;
  std::set<std::string> keys;
  bool identified = true;  // every listed GPU has a key by its PCI address
};

Result<Listing> ReadListing(Database& db, int64_t bundle_id, const GpuDirectory& gpus, const char* sql, bool by_uuid) {
  Listing listing;
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  s.Bind(1, bundle_id);
  while (s.Step()) {
    if (!listing.artifact_id) listing.artifact_id = s.ColumnInt(0);
    std::string bus = s.ColumnIsNull(1) ? "" : s.ColumnText(1);
    std::string uuid = by_uuid && !s.ColumnIsNull(2) ? s.ColumnText(2) : "";
    std::optional<std::string> key;
    if (!uuid.empty()) key = gpus.Key("uuid", uuid);
    if (!key && !bus.empty()) key = gpus.Key("bus", bus);
    if (!key) continue;
    if (key->rfind("gpu-", 0) == 0) listing.identified = false;
    listing.keys.insert(*key);
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return listing;
}

std::optional<bool> In(const Listing& listing, const std::string& key, bool needs_identified) {
  if (!listing.artifact_id) return std::nullopt;
  if (listing.keys.count(key)) return true;
  if (needs_identified && !listing.identified) return std::nullopt;
  return false;
}

}  // namespace

Result<std::vector<GpuPresence>> LoadGpuPresence(Database& db, int64_t bundle_id, const GpuDirectory& gpus) {
  GPUF_ASSIGN_OR_RETURN(Listing pci, ReadListing(db, bundle_id, gpus, kPciListings, false));
  GPUF_ASSIGN_OR_RETURN(Listing nvml, ReadListing(db, bundle_id, gpus, kHostNvmlLists, true));
  std::vector<GpuPresence> presence;
  for (const auto& names : gpus.gpus()) {
    GpuPresence p{.gpu = GpuDirectory::KeyOf(names), .bus = names.bus, .uuid = names.uuid};
    if (!names.bus.empty()) p.on_pci = In(pci, p.gpu, false);
    // A GPU known by its PCI address is missing from NVML's list only when
    // every GPU in the list could be placed on the bus.
    p.listed = In(nvml, p.gpu, !names.bus.empty());
    p.pci_artifact_id = pci.artifact_id;
    p.nvml_artifact_id = nvml.artifact_id;
    presence.push_back(std::move(p));
  }
  return presence;
}

Status WriteGpuSubjects(Database& db, const std::vector<GpuPresence>& presence) {
  GPUF_RETURN_IF_ERROR(db.Exec("DELETE FROM temp.gpu_subjects"));
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare("INSERT INTO temp.gpu_subjects VALUES (?, ?, ?, ?, ?, ?, ?)"));
  auto flag = [](std::optional<bool> b) -> std::optional<int64_t> {
    if (!b) return std::nullopt;
    return *b ? 1 : 0;
  };
  for (const auto& p : presence) {
    s.Bind(1, p.gpu);
    p.bus.empty() ? s.BindNull(2) : s.Bind(2, p.bus);
    p.uuid.empty() ? s.BindNull(3) : s.Bind(3, p.uuid);
    s.Bind(4, flag(p.on_pci));
    s.Bind(5, flag(p.listed));
    s.Bind(6, p.pci_artifact_id);
    s.Bind(7, p.nvml_artifact_id);
    GPUF_RETURN_IF_ERROR(s.Run());
  }
  return Status::Ok();
}

}  // namespace gpuf
