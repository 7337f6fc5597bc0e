#include "analyzer/rules/gpu_presence.h"

#include <doctest/doctest.h>

#include "tests/sample_rows_bundle.h"

namespace gpuf {

namespace {

const GpuPresence* Find(const std::vector<GpuPresence>& all, const std::string& gpu) {
  for (const auto& p : all) {
    if (p.gpu == gpu) return &p;
  }
  return nullptr;
}

constexpr char kTwoOnPciOneListed[] = R"(      pci_devices:
        - {artifact: pci.nvidia_functions, line: 1, address: '0000:2b:00.0', vendor: '0x10de', class: '0x030200', role: gpu}
        - {artifact: pci.nvidia_functions, line: 2, address: '0000:5e:00.0', vendor: '0x10de', class: '0x030200', role: gpu}
      gpus:
        - {artifact: host.nvidia_smi_list, line: 1, gpu_index: 0, uuid: GPU-2b}
)";

}  // namespace

TEST_SUITE("gpu_presence") {
TEST_CASE("LoadGpuPresence: a GPU NVML lists, one it does not, one the bus no longer shows") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, kTwoOnPciOneListed);
  auto directory = GpuDirectory::Load(db, bundle);
  REQUIRE(directory.ok());
  directory->Add({.bus = "PCI:0000:2b:00", .uuid = "GPU-2b"});   // the kernel named it
  directory->Add({.bus = "PCI:0000:88:00", .uuid = "GPU-88"});   // an earlier boot's GPU
  auto presence = LoadGpuPresence(db, bundle, *directory);
  REQUIRE(presence.ok());
  const GpuPresence* listed = Find(*presence, "0000:2b:00.0");
  const GpuPresence* unlisted = Find(*presence, "0000:5e:00.0");
  const GpuPresence* gone = Find(*presence, "0000:88:00.0");
  REQUIRE((listed && unlisted && gone));
  CHECK(listed->on_pci == true);
  CHECK(listed->listed == true);
  CHECK(unlisted->on_pci == true);
  CHECK(unlisted->listed == false);
  CHECK(gone->on_pci == false);
  CHECK(gone->listed == false);
}

TEST_CASE("LoadGpuPresence: NVML's list that cannot be placed on the bus says no GPU is missing from it") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, kTwoOnPciOneListed);
  auto directory = GpuDirectory::Load(db, bundle);  // nothing joins GPU-2b to an address
  REQUIRE(directory.ok());
  auto presence = LoadGpuPresence(db, bundle, *directory);
  REQUIRE(presence.ok());
  const GpuPresence* on_bus = Find(*presence, "0000:2b:00.0");
  const GpuPresence* by_uuid = Find(*presence, "gpu-2b");
  REQUIRE((on_bus && by_uuid));
  CHECK_FALSE(on_bus->listed.has_value());
  CHECK(by_uuid->listed == true);
  CHECK_FALSE(by_uuid->on_pci.has_value());
}

TEST_CASE("LoadGpuPresence: without the captures, presence is unknown, and gpu_subjects says so") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, "      versions: []\n");
  GpuDirectory directory;
  directory.Add({.bus = "0000:2b:00.0", .uuid = "GPU-2b"});
  auto presence = LoadGpuPresence(db, bundle, directory);
  REQUIRE(presence.ok());
  REQUIRE(presence->size() == 1);
  CHECK_FALSE((*presence)[0].on_pci.has_value());
  CHECK_FALSE((*presence)[0].listed.has_value());
  REQUIRE(db.Exec("CREATE TEMP TABLE IF NOT EXISTS gpu_subjects (gpu TEXT NOT NULL, bus TEXT, uuid TEXT, "
                  "on_pci INTEGER, listed INTEGER, pci_artifact_id INTEGER, nvml_artifact_id INTEGER)")
              .ok());
  REQUIRE(WriteGpuSubjects(db, *presence).ok());
  auto s = db.Prepare("SELECT gpu, on_pci IS NULL, listed IS NULL FROM gpu_subjects");
  REQUIRE(s.ok());
  REQUIRE(s->Step());
  CHECK(s->ColumnText(0) == "0000:2b:00.0");
  CHECK(s->ColumnInt(1) == 1);
  CHECK(s->ColumnInt(2) == 1);
}
}

}  // namespace gpuf
