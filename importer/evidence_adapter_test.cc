#include "importer/adapters.h"

#include <doctest/doctest.h>

#include <string>

#include "importer/source_tree.h"

namespace gpuf {

TEST_SUITE("evidence_adapter") {

// Files saved on 2026-12-01, long after the outputs were printed.
constexpr int64_t kSavedNs = 1'796'083'200'000'000'000;

// The year of the plugin log's first stamp, as the stored CRI text writes it.
std::string PluginLogYear(const std::string& dated_file, const std::string& dated_text) {
  SourceTree tree;
  tree.AddFile(dated_file, dated_text, kSavedNs);
  tree.AddFile("plugin.log",
               "I0311 02:38:41.311876       1 server.go:146] Registered device plugin for 'nvidia.com/gpu' with "
               "Kubelet\n",
               kSavedNs);
  ImportPlan plan = ImportEvidenceDir(tree, "pasted");
  for (const auto& a : plan.artifacts) {
    if (a.name.rfind("plugin.", 0) == 0) return a.bytes.substr(0, 4);
  }
  return "";
}

TEST_CASE("ImportEvidenceDir: a ctime date beside a yearless klog log gives it its year") {
  CHECK(PluginLogYear("dmesg.txt", "[Tue Mar 11 02:14:07 2025] NVRM: Xid (PCI:0000:31:00): 48, pid='<unknown>', "
                                   "name=<unknown>, An uncorrectable double bit error (DBE) has been detected\n") ==
        "2025");
  CHECK(PluginLogYear("nvidia-smi-q.txt",
                      "==============NVSMI LOG==============\n\nTimestamp                                 : "
                      "Tue Mar 10 02:36:12 2026\nDriver Version                            : 535.183.01\n") == "2026");
}

TEST_CASE("ImportEvidenceDir: a yearless line months after the newest dated one keeps its year, within half a year") {
  // An ISO stamp of January dates a March klog line in the same year, not the year before.
  CHECK(PluginLogYear("kubelet.log", "2024-01-05T08:00:00Z kubelet started\n") == "2024");
}

}  // TEST_SUITE

}  // namespace gpuf
