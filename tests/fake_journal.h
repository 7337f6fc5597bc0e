// Real journal files for fake nodes: entries in journald's export format,
// written by systemd-journal-remote under the fake root, as a node's
// journald would have written them; read back by the real journalctl.
#ifndef GPUF_TESTS_FAKE_JOURNAL_H_
#define GPUF_TESTS_FAKE_JOURNAL_H_

#include <cstdint>
#include <string>

#include "tests/test_support.h"

namespace gpuf::test {

// A boot of the fake node: its id (32 hex digits) and when it started.
struct FakeBoot {
  std::string id;
  int64_t start_us = 0;  // Unix microseconds
};

// The fake node's boot at capture (fake_node.cc's boot_id and btime).
FakeBoot CurrentBoot();
// The boot a day before it.
FakeBoot PreviousBoot();

// Writing a journal takes root and systemd-journal-remote; false (and a
// message saying the test is skipped) without them.
bool JournalWritable();

// Writes `export_text` as the node's system journal; false when
// systemd-journal-remote fails.
bool WriteJournal(const FakeHost& host, const std::string& export_text);

// One entry of `boot` (the current one by default): its time, the node's
// ids, `fields` ("NAME=value\n" lines) and the message.
std::string ExportEntry(int64_t realtime_us, const std::string& fields, const std::string& message,
                        const FakeBoot& boot = CurrentBoot());

// A kernel line of `boot`, `seconds` after it started.
std::string KernelEntry(const FakeBoot& boot, double seconds, const std::string& message);

}  // namespace gpuf::test

#endif  // GPUF_TESTS_FAKE_JOURNAL_H_
