// What a row of evidence is about: the GPU and the container it names, as
// keys that are equal exactly when two rows name the same one. The rule
// language's `same gpu` and `same container` compare these keys, so no rule
// normalises a bus or joins a UUID to it by hand.
//
// A GPU is named in many ways: the kernel's "PCI:0000:3b:00", nvidia-smi's
// "00000000:3B:00.0", sysfs's "0000:3b:00.0", a UUID "GPU-…", a minor
// number of /dev/nvidiaN, an NVML index, a board serial. The directory joins them once per
// bundle from what the bundle says of its GPUs (the driver's information
// files, nvidia-smi, the kernel's "GPU at PCI:… GPU-…" lines), and a GPU's
// key is its PCI address whenever any of them gives it.
#ifndef GPUF_ANALYZER_RULES_SUBJECT_KEYS_H_
#define GPUF_ANALYZER_RULES_SUBJECT_KEYS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/selection_rows.h"
#include "common/status.h"

namespace gpuf {

// One GPU as one source names it; empty fields are not known to it.
struct GpuNames {
  std::string bus{};  // any PCI notation
  std::string uuid{};
  std::optional<int64_t> minor{};
  std::optional<int64_t> index{};
  std::string serial{};  // the board's, as nvidia-smi -q gives it: RMA cases are filed by it
};

class GpuDirectory {
 public:
  // The GPUs of the bundle's PCI listing, driver information files and
  // nvidia-smi. Fails when the database does.
  static Result<GpuDirectory> Load(Database& db, int64_t bundle_id);

  // Joins `names` with what is known: records sharing a bus, a UUID or a
  // minor number are one GPU.
  void Add(const GpuNames& names);

  // The GPU that `value` of the row field `field` names, as its key;
  // nullopt when the value names no GPU ("all", empty).
  std::optional<std::string> Key(std::string_view field, std::string_view value) const;

  // Tags every row with the GPU and container its fields name (the first
  // field that names one: gpu, bus, pci, uuid, device, minor, index, serial; and
  // container, container_id).
  void Tag(std::vector<SelectionRow>& rows) const;

  // Every GPU it knows, one record each (bus in sysfs form, uuid in lower case).
  const std::vector<GpuNames>& gpus() const { return gpus_; }
  // A record's key: its PCI address, else its UUID.
  static std::string KeyOf(const GpuNames& gpu);

 private:
  std::vector<GpuNames> gpus_;  // bus in sysfs form, uuid in lower case
};

// Container IDs as keys: lower case; crictl's 13-character short form and
// the full 64-character ID are the same container.
bool SameContainer(std::string_view a, std::string_view b);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SUBJECT_KEYS_H_
