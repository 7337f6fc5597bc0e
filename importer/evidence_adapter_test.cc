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

std::string KernelInstances(const SourceTree& tree) {
  std::string instances;
  for (const auto& a : ImportEvidenceDir(tree, "pasted").artifacts) {
    if (a.name == "journal.kernel") instances += (instances.empty() ? "" : " ") + a.instance;
  }
  return instances;
}

TEST_CASE("ImportEvidenceDir: a kernel journal older than the boot dmesg -T shows is the boot before it") {
  const std::string journal =
      "Apr 03 22:17:41 gpu-a30-03 kernel: NVRM: Xid (PCI:0000:ca:00): 119, pid=2211409, name=python3, Timeout "
      "waiting for RPC from GSP! Expected function 103 (GSP_RM_ALLOC) (0x80 0x38).\n";
  const std::string dmesg =
      "[Wed Apr 12 10:05:09 2023] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.105.17  Tue Mar 28 18:02:59 "
      "UTC 2023\n";
  SourceTree earlier;
  earlier.AddFile("journal-kernel.txt", journal, kSavedNs);
  earlier.AddFile("dmesg.txt", dmesg, kSavedNs);
  CHECK(KernelInstances(earlier) == "boot:-1 boot:0");
  // The same lines in the boot dmesg shows: the journal text is kept, dmesg is not read.
  SourceTree same;
  same.AddFile("journal-kernel.txt", "Apr 12 10:17:41 gpu-a30-03 kernel: NVRM: Xid (PCI:0000:ca:00): 119, pid=1\n",
               kSavedNs);
  same.AddFile("dmesg.txt", dmesg, kSavedNs);
  CHECK(KernelInstances(same) == "boot:0");
}

TEST_CASE("ImportEvidenceDir: a journal text saved under its journalctl -b -1 command is the boot before") {
  const std::string lines =
      "Apr 03 22:17:41 gpu-a30-03 kernel: NVRM: Xid (PCI:0000:ca:00): 79, pid=1, GPU has fallen off the bus.\n";
  for (const char* command :
       {"$ journalctl -k -b -1\n", "root@node:~# journalctl --boot=-1 -k --no-pager\n", "$ sudo journalctl -kb -1\n"}) {
    SourceTree tree;
    tree.AddFile("kernel.txt", command + lines, kSavedNs);
    CHECK_MESSAGE(KernelInstances(tree) == "boot:-1", command);
  }
  SourceTree current;
  current.AddFile("kernel.txt", "$ journalctl -k -b\n" + lines, kSavedNs);
  CHECK(KernelInstances(current) == "boot:0");
  // Beside it, a dmesg is the boot at capture's kernel log.
  SourceTree with_dmesg;
  with_dmesg.AddFile("kernel.txt", "$ journalctl -k -b -1\n" + lines, kSavedNs);
  with_dmesg.AddFile(
      "dmesg.txt", "[Wed Apr 12 10:05:09 2023] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.105.17\n", kSavedNs);
  CHECK(KernelInstances(with_dmesg) == "boot:-1 boot:0");
}

TEST_CASE("ImportEvidenceDir: journalctl --list-boots places a kernel journal's lines in their boots") {
  // One grep of `journalctl -k` over two boots, without the "-- Boot --"
  // markers a grep drops: the list says when the current boot began.
  const std::string journal =
      "Apr 03 22:17:41 gpu-a30-03 kernel: NVRM: Xid (PCI:0000:ca:00): 79, pid=1, GPU has fallen off the bus.\n"
      "Apr 04 08:00:09 gpu-a30-03 kernel: NVRM: loading NVIDIA UNIX x86_64 Kernel Module  525.105.17\n";
  const std::string boots =
      "-1 9041bba558bd41d70d8d3d4dd1461f95 Mon 2023-03-27 09:12:03 UTC\u2014Mon 2023-04-03 22:20:30 UTC\n"
      " 0 1a2b3c4d5e6f708192a3b4c5d6e7f801 Tue 2023-04-04 08:00:01 UTC\u2014Tue 2023-04-04 09:00:00 UTC\n";
  SourceTree tree;
  tree.AddFile("journal-kernel.txt", journal, kSavedNs);
  tree.AddFile("list-boots.txt", boots, kSavedNs);
  CHECK(KernelInstances(tree) == "boot:0 boot:-1");
  SourceTree without_list;
  without_list.AddFile("journal-kernel.txt", journal, kSavedNs);
  CHECK(KernelInstances(without_list) == "boot:0");
}

}  // TEST_SUITE

}  // namespace gpuf
