#include "tests/fake_journal.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

namespace gpuf::test {

FakeBoot CurrentBoot() { return {"9c1d4e2a5b6f4a3b8c7d0e1f2a3b4c5d", 1763435860LL * 1000000}; }

FakeBoot PreviousBoot() { return {"5e0c1b2a39484756a5b4c3d2e1f0a9b8", (1763435860LL - 86400) * 1000000}; }

bool JournalWritable() {
  if (geteuid() == 0 && std::filesystem::exists("/lib/systemd/systemd-journal-remote")) return true;
  MESSAGE("skipped: needs root and systemd-journal-remote to write the journal");
  return false;
}

bool WriteJournal(const FakeHost& host, const std::string& export_text) {
  const std::string dir = host.root() + "/var/log/journal/4f1c2b3a4d5e6f708192a3b4c5d6e7f8";
  std::filesystem::create_directories(dir);
  const std::string input = host.root() + "/../journal.export";
  WriteFile(input, export_text);
  auto r = RunProcess({"/lib/systemd/systemd-journal-remote", "--output=" + dir + "/system.journal", "--compress=no",
                       "--split-mode=none", input},
                      {"SYSTEMD_LOG_LEVEL=warning"});
  return r.exit_code == 0;
}

std::string ExportEntry(int64_t realtime_us, const std::string& fields, const std::string& message,
                        const FakeBoot& boot) {
  return "__REALTIME_TIMESTAMP=" + std::to_string(realtime_us) + "\n__MONOTONIC_TIMESTAMP=" +
         std::to_string(realtime_us - boot.start_us) + "\n_BOOT_ID=" + boot.id +
         "\n_MACHINE_ID=4f1c2b3a4d5e6f708192a3b4c5d6e7f8\n_HOSTNAME=gpu-node-7\nPRIORITY=6\n" + fields +
         "MESSAGE=" + message + "\n\n";
}

std::string KernelEntry(const FakeBoot& boot, double seconds, const std::string& message) {
  return ExportEntry(boot.start_us + static_cast<int64_t>(seconds * 1e6),
                     "_TRANSPORT=kernel\nSYSLOG_IDENTIFIER=kernel\nSYSLOG_FACILITY=0\n", message, boot);
}

}  // namespace gpuf::test
