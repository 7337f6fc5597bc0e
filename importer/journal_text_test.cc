#include "importer/journal_text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "common/text_lines.h"
#include "formats/journal_json.h"
#include "importer/conversions.h"

namespace gpuf {

TEST_SUITE("journal_text") {

TEST_CASE("ConvertJournalText: short lines become journal JSON in their slices, UTC from the node's offset") {
  TimeHints hints;
  hints.year = 2026;
  hints.utc_offset_seconds = 8 * 3600;
  hints.boot_start_ns = 1794971859000000000LL;  // 2026-11-18T03:17:39Z
  hints.boot_id = "7b1bf52637142aab7cef3ab192ed85ab";
  JournalSplit split = ConvertJournalText(
      "-- Journal begins at Mon 2026-11-02 09:12:03 CST, ends at Wed 2026-11-18 21:29:59 CST. --\n"
      "Nov 18 11:17:56 node-1 kernel: NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07\n"
      "Nov 18 11:18:16 node-1 systemd[1]: Started NVIDIA Persistence Daemon.\n"
      "Nov 18 11:18:07 node-1 kubelet[1333]: I1118 11:18:07.085121    1333 server.go:486] \"Kubelet version\"\n"
      "    continued text\n"
      "Nov 18 11:18:08 node-1 sshd[77]: Accepted publickey\n",
      hints);
  CHECK(split.lines_read == 6);
  CHECK(split.lines_skipped == 1);
  CHECK(split.unread_identifiers == std::map<std::string, int>{{"sshd", 1}});
  CHECK(split.hostname == "node-1");
  REQUIRE(split.slices.size() == 3);
  auto kernel = ParseJournalJsonLine(split.slices["journal.kernel"]);
  REQUIRE(kernel);
  CHECK(kernel->realtime_us == 1794971876000000LL);
  CHECK(kernel->monotonic_us == 17000000);
  CHECK(kernel->transport == "kernel");
  CHECK(kernel->boot_id == "7b1bf52637142aab7cef3ab192ed85ab");
  auto pid1 = ParseJournalJsonLine(split.slices["journal.systemd"]);
  REQUIRE(pid1);
  CHECK(pid1->pid == 1);
  CHECK(pid1->unit == "nvidia-persistenced.service");
  CHECK(pid1->message == "Started NVIDIA Persistence Daemon.");
  auto kubelet = ParseJournalJsonLine(split.slices["journal.kubelet"]);
  REQUIRE(kubelet);
  CHECK(kubelet->unit == "kubelet.service");
  CHECK(kubelet->message == "I1118 11:18:07.085121    1333 server.go:486] \"Kubelet version\"\ncontinued text");
}

TEST_CASE("ConvertJournalText: a December line read in January is from the year before") {
  TimeHints hints;
  hints.not_after_ns = 1767312000000000000LL;  // 2026-01-02T00:00:00Z
  JournalSplit split = ConvertJournalText(
      "Dec 31 23:59:59 n systemd[1]: Started kubelet: The Kubernetes Node Agent.\n"
      "Jan  1 00:00:01 n systemd[1]: Started containerd container runtime.\n",
      hints);
  std::string text = split.slices["journal.systemd"];
  auto december = ParseJournalJsonLine(text.substr(0, text.find('\n')));
  auto january = ParseJournalJsonLine(text.substr(text.find('\n') + 1));
  REQUIRE(december);
  REQUIRE(january);
  CHECK(december->realtime_us == 1767225599000000LL);  // 2025-12-31T23:59:59Z
  CHECK(january->realtime_us == 1767225601000000LL);   // 2026-01-01T00:00:01Z
}

TEST_CASE("ConvertJournalText: a text spanning boots puts each line in its boot") {
  TimeHints hints;
  hints.year = 2026;
  hints.boot_id = "7b1bf52637142aab7cef3ab192ed85ab";
  JournalSplit split = ConvertJournalText(
      "Nov 02 09:12:31 n systemd[1]: Started kubelet: The Kubernetes Node Agent.\n"
      "-- Boot 7b1bf52637142aab7cef3ab192ed85ab --\n"
      "Nov 18 11:18:06 n systemd[1]: Started kubelet: The Kubernetes Node Agent.\n",
      hints);
  CHECK(split.lines_skipped == 1);
  REQUIRE(split.earlier.count(-1) == 1);
  auto before = ParseJournalJsonLine(split.earlier[-1]["journal.systemd"]);
  auto now = ParseJournalJsonLine(split.slices["journal.systemd"]);
  REQUIRE(before);
  REQUIRE(now);
  CHECK(before->boot_id != now->boot_id);
  CHECK(now->boot_id == "7b1bf52637142aab7cef3ab192ed85ab");

  // Without markers, a line older than the boot's known start is an earlier boot's.
  hints.boot_start_ns = 1794971859000000000LL;  // 2026-11-18T03:17:39Z
  JournalSplit by_time = ConvertJournalText(
      "Nov 02 01:12:31 n kubelet[9]: I1102 old\nNov 18 03:18:07 n kubelet[1333]: I1118 new\n", hints);
  CHECK(by_time.earlier[-1].count("journal.kubelet") == 1);
  auto current = ParseJournalJsonLine(by_time.slices["journal.kubelet"]);
  REQUIRE(current);
  CHECK(current->message == "I1118 new");
  CHECK(current->monotonic_us == 28000000);
}

TEST_CASE("ConvertJournalText: entries without a host name") {
  TimeHints hints;
  hints.year = 2026;
  JournalSplit split = ConvertJournalText("Nov 30 18:14:35 systemd[1]: Started NVIDIA Persistence Daemon.\n", hints);
  CHECK(split.lines_skipped == 0);
  CHECK(split.hostname == "");
  auto e = ParseJournalJsonLine(split.slices["journal.systemd"]);
  REQUIRE(e);
  CHECK(e->unit == "nvidia-persistenced.service");
}

TEST_CASE("ConvertJournalText: a line with two spaces where the host should be is skipped") {
  TimeHints hints;
  hints.year = 2026;
  JournalSplit split = ConvertJournalText("Nov 30 18:14:35  kubelet[9]: text\n", hints);
  CHECK(split.lines_read == 1);
  CHECK(split.lines_skipped == 1);
  CHECK(split.slices.empty());
}

TEST_CASE("ConvertJournalText: the device plugin run as a host service has a slice of its own") {
  TimeHints hints;
  hints.year = 2026;
  JournalSplit split = ConvertJournalText(
      "Oct 17 12:05:33 ip-10-0-0-1.ec2.internal nvidia-device-plugin[1667]: I1017 12:05:33.312453    1667 "
      "server.go:154] Registered device plugin for 'nvidia.com/gpu' with Kubelet\n",
      hints);
  CHECK(split.lines_skipped == 0);
  auto e = ParseJournalJsonLine(split.slices["journal.nvidia_device_plugin"]);
  REQUIRE(e);
  CHECK(e->identifier == "nvidia-device-plugin");
  CHECK(e->unit == "nvidia-k8s-device-plugin.service");
}

TEST_CASE("ConvertJournalText: a user's systemd manager is not PID 1") {
  TimeHints hints;
  hints.year = 2026;
  JournalSplit split = ConvertJournalText(
      "Nov 30 18:14:35 node-1 systemd[4321]: Reloading.\nNov 30 18:14:36 node-1 systemd[1]: Reloading.\n", hints);
  CHECK(split.lines_read == 2);
  std::string systemd = split.slices["journal.systemd"];
  CHECK(std::count(systemd.begin(), systemd.end(), '\n') == 1);
  auto e = ParseJournalJsonLine(systemd.substr(0, systemd.find('\n')));
  REQUIRE(e);
  CHECK(e->pid == 1);
}

TEST_CASE("ConvertJournalText: short-iso carries its own offset") {
  TimeHints hints;
  JournalSplit split =
      ConvertJournalText("2026-11-18T11:18:00+0800 node-1 containerd[1294]: starting containerd\n", hints);
  auto e = ParseJournalJsonLine(split.slices["journal.containerd"]);
  REQUIRE(e);
  CHECK(e->realtime_us == 1794971880000000LL);
  CHECK(e->pid == 1294);
}

TEST_CASE("ConvertDmesgText: seconds since boot placed at the boot's start") {
  TimeHints hints;
  hints.boot_start_ns = 1794971859000000000LL;
  JournalSplit split = ConvertDmesgText(
      "[    0.000000] Linux version 5.10.134\n[   17.288000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module\nnoise\n",
      hints);
  CHECK(split.lines_skipped == 1);
  std::string text = split.slices["journal.kernel"];
  auto second = ParseJournalJsonLine(text.substr(text.find('\n') + 1));
  REQUIRE(second);
  CHECK(second->source_monotonic_us == 17288000);
  CHECK(second->realtime_us == 1794971876288000LL);
}

TEST_CASE("ConvertDmesgText: a notice of several lines, lines without stamps and dmesg -T") {
  TimeHints hints;
  hints.boot_start_ns = 1794971859000000000LL;
  hints.utc_offset_seconds = 8 * 3600;
  JournalSplit split = ConvertDmesgText(
      "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
      "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
      "               NVRM: fallen off the bus and is not responding to commands.\n"
      "NVRM: Xid (PCI:0000:ca:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
      "[Wed Nov 18 19:44:02 2026] NVRM: Xid (PCI:0000:61:00): 119, pid=48213, name=nvidia-smi, Timeout\n"
      "# dmesg |grep -i xid\n",
      hints);
  CHECK(split.lines_read == 6);
  CHECK(split.lines_skipped == 1);
  std::vector<JournalEntry> entries;
  ForEachLine(split.slices["journal.kernel"], [&](int, std::string_view line) {
    if (auto e = ParseJournalJsonLine(line)) entries.push_back(*e);
  });
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].message ==
        "NVRM: The NVIDIA GPU 0000:b3:00.0\nNVRM: (PCI ID: 10de:26b5) installed in this system has\n"
        "NVRM: fallen off the bus and is not responding to commands.");
  CHECK(entries[0].source_monotonic_us == 1843308145);
  CHECK(entries[1].message.rfind("NVRM: Xid (PCI:0000:ca:00): 79", 0) == 0);
  CHECK_FALSE(entries[1].realtime_us);  // no time was printed
  CHECK(entries[2].realtime_us == 1795002242000000LL);  // 19:44:02 at +08:00
}

TEST_CASE("InferUtcOffsetFromJournal: containerd's own time next to the journal's local time") {
  CHECK(InferUtcOffsetFromJournal("Nov 18 11:18:00 n containerd[1]: time=\"2026-11-18T11:18:00.31+08:00\" level=info\n") ==
        8 * 3600);
  CHECK(InferUtcOffsetFromJournal("Nov 18 03:18:00 n containerd[1]: time=\"2026-11-18T03:17:59.9Z\" level=info\n") == 0);
  CHECK_FALSE(InferUtcOffsetFromJournal("Nov 18 03:18:00 n kubelet[1]: I1118 x\n").has_value());
}

TEST_CASE("Date texts: numeric offsets, C-locale date, uptime -s") {
  CHECK(UtcOffsetFromDateText("Wed, 18 Nov 2026 21:30:00 +0800") == 8 * 3600);
  CHECK(UtcOffsetFromDateText("       Time zone: America/St_Johns (NST, -0330)") == -(3 * 3600 + 1800));
  CHECK_FALSE(UtcOffsetFromDateText("Wed Nov 18 21:30:00 CST 2026").has_value());
  CHECK(ParseDateAsUtc("Wed Nov 18 21:30:00 CST 2026") == 1795037400000000000LL);
  // 21:30 local, the file written 40 s later at 13:30:40Z: +08:00.
  CHECK(OffsetBetween(1795037400000000000LL, 1795008600000000000LL + 40000000000LL, 300) == 8 * 3600);
  // 400 s from any quarter hour: no offset is guessed.
  CHECK_FALSE(OffsetBetween(1795037400000000000LL, 1795008600000000000LL + 400000000000LL, 300).has_value());
  CHECK(ParseUptimeSince("2026-11-18 11:17:39\n", 8 * 3600) == 1794971859000000000LL);
  CHECK_FALSE(ParseUptimeSince("up 2 days", 0).has_value());
}

TEST_CASE("Ctime dates anywhere in a text: dmesg -T, nvidia-smi -q, date") {
  auto times = CtimesAsUtc(
      "[Wed Nov 18 21:30:00 2026] NVRM: Xid 79\n"
      "Timestamp                                 : Wed Nov 18 21:31:00 2026\n"
      "Wed Nov 18 21:32:00 CST 2026\n"
      "Nov 18 21:33:00 node kernel: no weekday, no year\n"
      "[Wed Foo 18 21:34:00 2026] not a month\n");
  REQUIRE(times.size() == 3);
  CHECK(times[0] == 1795037400000000000LL);
  CHECK(times[1] == 1795037460000000000LL);
  CHECK(times[2] == 1795037520000000000LL);
  CHECK(CtimesAsUtc("[12.345678] NVRM: loading").empty());
}

namespace {

std::vector<JournalEntry> Entries(const std::string& json_lines) {
  std::vector<JournalEntry> out;
  ForEachLine(json_lines, [&](int, std::string_view line) {
    if (auto e = ParseJournalJsonLine(line)) out.push_back(*e);
  });
  return out;
}

}  // namespace

TEST_CASE("ConvertDmesgText: talosctl dmesg, with and without the node, keeps its UTC time") {
  // tests/corpus/ogkm-446-talos-a100-xid62-154-gsp-rpc-timeout: the level right-aligned, 8 fraction digits.
  JournalSplit split = ConvertDmesgText(
      "192.168.11.119: kern:     err: [2026-04-22T21:25:20.466440686Z]: nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007\n"
      "kern: warning: [2026-04-22T21:30:51.52643656Z]: NVRM: Xid (PCI:0000:48:00): 62, 00002740\n",
      TimeHints{});
  CHECK(split.lines_skipped == 0);
  auto entries = Entries(split.slices["journal.kernel"]);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].message == "nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007");
  CHECK(entries[0].realtime_us == 1776893120466440LL);
  CHECK(entries[1].message == "NVRM: Xid (PCI:0000:48:00): 62, 00002740");
  CHECK(entries[1].realtime_us == 1776893451526436LL);
}

TEST_CASE("ConvertDmesgText: a console log's service lines go to their slices, a process named by the kernel stays") {
  // tests/corpus/bottlerocket-3726-console-plugin-lines-uptime-prefix: journald forwards to the console.
  TimeHints hints;
  hints.boot_start_ns = 1794971859000000000LL;
  JournalSplit split = ConvertDmesgText(
      "[  OK  ] Reached target Multi-User System.\n"
      "[   10.004542] nvidia-device-plugin[4284]: I0207 00:54:34.638748    4284 main.go:154] Starting FS watcher.\n"
      "[   10.500000] python3[811]: segfault at 0 ip 00007f sp 00007ffd error 4\n",
      hints);
  CHECK(split.lines_skipped == 1);
  auto plugin = Entries(split.slices["journal.nvidia_device_plugin"]);
  REQUIRE(plugin.size() == 1);
  CHECK(plugin[0].message == "I0207 00:54:34.638748    4284 main.go:154] Starting FS watcher.");
  CHECK(plugin[0].pid == 4284);
  CHECK(plugin[0].realtime_us == 1794971869004542LL);
  auto kernel = Entries(split.slices["journal.kernel"]);
  REQUIRE(kernel.size() == 1);
  CHECK(kernel[0].message == "python3[811]: segfault at 0 ip 00007f sp 00007ffd error 4");
}

TEST_CASE("ConvertJournalText: a month in another locale, lines without their prefix, a priority word") {
  TimeHints hints;
  hints.year = 2023;
  // tests/corpus/gpu-operator-610-fm-no-nvswitch-zh/journal.txt, k8s-138446, nvidia-docker-182, ogkm-1150.
  JournalSplit split = ConvertJournalText(
      "11月 15 14:15:47 leon-NF5468M6 systemd[1]: nvidia-fabricmanager.service: Control process exited, "
      "code=exited, status=1/FAILURE\n"
      "Mai 22 08:07:35 kuber-master-01 dockerd[1058]: time=\"2018-05-22T08:07:35.540590580+02:00\" level=info\n"
      "2026-04-19T03:02:12.948 controller-0 kubelet[4179744]: info I0419 03:02:12.910991 4179744 manager.go:913] "
      "\"Looking for needed resources\" needed=1\n"
      "nvidia-docker.service: Main process exited, code=exited, status=1/FAILURE\n"
      "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001\n",
      hints);
  CHECK(split.lines_read == 5);
  CHECK(split.lines_skipped == 0);
  CHECK(split.slices.count("journal.containerd") == 0);  // dockerd: read, but no slice of ours
  auto systemd = Entries(split.slices["journal.systemd"]);
  REQUIRE(systemd.size() == 2);
  CHECK(systemd[0].realtime_us == 1700057747000000LL);  // 2023-11-15 14:15:47 at UTC
  CHECK(systemd[1].message == "nvidia-docker.service: Main process exited, code=exited, status=1/FAILURE");
  CHECK_FALSE(systemd[1].realtime_us);  // printed without a time
  auto kubelet = Entries(split.slices["journal.kubelet"]);
  REQUIRE(kubelet.size() == 1);
  CHECK(kubelet[0].message.rfind("I0419 03:02:12.910991 4179744 manager.go:913]", 0) == 0);
  auto kernel = Entries(split.slices["journal.kernel"]);
  REQUIRE(kernel.size() == 1);
  CHECK(kernel[0].message == "NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001");
}

TEST_CASE("ConvertJournalText: kern.log keeps the kernel's seconds since boot out of the message") {
  TimeHints hints;
  hints.year = 2021;
  // tests/corpus/gpu-operator-1146-dbe-rminit-syslog/syslog.txt
  JournalSplit split = ConvertJournalText(
      "Dec  2 11:38:47 worker4 kernel: [  219.470994] NVRM: Xid (PCI:0000:07:00): 48, pid='<unknown>', "
      "name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at "
      "partition 6, subpartition 1.\n",
      hints);
  auto kernel = Entries(split.slices["journal.kernel"]);
  REQUIRE(kernel.size() == 1);
  CHECK(kernel[0].source_monotonic_us == 219470994);
  CHECK(kernel[0].message.rfind("NVRM: Xid (PCI:0000:07:00): 48,", 0) == 0);
}

TEST_CASE("ConvertDmesgText: --time-format iso, -H, /dev/kmsg and a stamped line with a leading blank") {
  TimeHints hints;
  hints.year = 2025;
  JournalSplit split = ConvertDmesgText(
      // tests/corpus/gpud-testdata-dmesg-decode-iso-xid13/dmesg-decode-iso.txt
      "kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid='<unknown>'\n"
      // util-linux's -H: minutes, then deltas since the line before
      "[Feb23 16:24] NVRM: GPU4 GSP RPC buffer contains function 103\n"
      "[  +0.500000] NVRM: GPU4 RPC history (CPU -> GSP):\n"
      // /dev/kmsg: microseconds since boot
      "6,3964,206764307,-;nvidia-nvswitch2: open (major=510)\n"
      // tests/corpus/sichek-51-gsp-reset-required/dmesg.txt
      " [Sun Jan 11 09:52:01 2026] NVRM: rpcRmApiAlloc_GSP: GspRmAlloc failed: hClass=0x0000c86f\n",
      hints);
  CHECK(split.lines_skipped == 0);
  auto kernel = Entries(split.slices["journal.kernel"]);
  REQUIRE(kernel.size() == 5);
  CHECK(kernel[0].realtime_us == 1737434504283302LL);
  CHECK(kernel[1].realtime_us == 1740327840000000LL);  // 2025-02-23 16:24 at UTC
  CHECK(kernel[2].realtime_us == 1740327840500000LL);
  CHECK(kernel[3].source_monotonic_us == 206764307);
  CHECK(kernel[3].message == "nvidia-nvswitch2: open (major=510)");
  CHECK(kernel[4].realtime_us == 1768125121000000LL);
  CHECK(kernel[4].message == "NVRM: rpcRmApiAlloc_GSP: GspRmAlloc failed: hClass=0x0000c86f");
}

TEST_CASE("ConvertKlogAsJournal: a kubelet's own log, and grep's file prefix over its glog files") {
  TimeHints hints;
  hints.year = 2021;
  // tests/corpus/gpushare-156-listandwatch-grpc-too-large/kubelet-grep.txt
  JournalSplit split = ConvertKlogAsJournal(
      "kubelet.pc-zjdbai51.root.log.INFO.20210709-193402.2247:I0716 14:19:20.343282    2247 manager.go:363] "
      "Got registration request from device plugin with resource name \"aliyun.com/gpu-mem\"\n",
      "kubelet", hints);
  CHECK(split.lines_skipped == 0);
  auto kubelet = Entries(split.slices["journal.kubelet"]);
  REQUIRE(kubelet.size() == 1);
  CHECK(kubelet[0].pid == 2247);
  CHECK(kubelet[0].realtime_us == 1626445160343282LL);
  CHECK(kubelet[0].message.rfind("I0716 14:19:20.343282    2247 manager.go:363]", 0) == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
