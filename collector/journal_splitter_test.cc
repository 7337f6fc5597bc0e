#include "collector/journal_splitter.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace gpuf {

namespace {

class StringSink : public ByteSink {
 public:
  explicit StringSink(size_t cap = SIZE_MAX) : cap_(cap) {}
  Status Write(std::string_view bytes) override {
    text += bytes.substr(0, cap_ - std::min(cap_, text.size()));
    return Status::Ok();
  }
  bool Full() const override { return text.size() >= cap_; }
  std::string text;

 private:
  size_t cap_;
};

// Entry `seq` of a journal printed newest first: kernel's every 20th, the
// kubelet's the rest.
std::string Entry(int seq) {
  const std::string head = "__CURSOR=s=1;i=" + std::to_string(seq) + "\n";
  if (seq % 20 == 0) return head + "_TRANSPORT=kernel\nMESSAGE=kernel " + std::to_string(seq) + "\n\n";
  return head + "_SYSTEMD_UNIT=kubelet.service\nMESSAGE=kubelet " + std::to_string(seq) + "\n\n";
}

std::string Entries(int newest, int oldest) {
  std::string text;
  for (int seq = newest; seq >= oldest; --seq) text += Entry(seq);
  return text;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_SUITE("journal_splitter") {

TEST_CASE("JournalSplitter: each entry goes to every slice that selects it, as one JSON line") {
  StringSink kernel, kubelet, systemd;
  JournalSplitter splitter({{JournalSliceMatch(*FindJournalSlice("journal.kernel")), &kernel},
                            {JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &kubelet},
                            {JournalSliceMatch(*FindJournalSlice("journal.systemd")), &systemd}});
  const std::string stream =
      "_SYSTEMD_UNIT=kubelet.service\n_PID=2210\nMESSAGE=I1118 registered\n\n"
      "_TRANSPORT=kernel\nMESSAGE=NVRM: Xid 79\n\n"
      // PID 1 about the kubelet: "Started kubelet.service" belongs to both.
      "_PID=1\nUNIT=kubelet.service\n_SYSTEMD_UNIT=init.scope\nMESSAGE=Started kubelet.service\n\n"
      "_SYSTEMD_UNIT=sshd.service\nMESSAGE=Accepted publickey\n\n"
      "_TRANSPORT=kernel\nMESSAGE=cut";
  for (size_t at = 0; at < stream.size(); at += 5) CHECK(splitter.Write(std::string_view(stream).substr(at, 5)).ok());
  CHECK(splitter.Finish().ok());
  const std::string started =
      R"({"_PID":"1","UNIT":"kubelet.service","_SYSTEMD_UNIT":"init.scope","MESSAGE":"Started kubelet.service"})"
      "\n";
  CHECK(kernel.text == R"({"_TRANSPORT":"kernel","MESSAGE":"NVRM: Xid 79"})"
                       "\n");
  CHECK(kubelet.text == R"({"_SYSTEMD_UNIT":"kubelet.service","_PID":"2210","MESSAGE":"I1118 registered"})"
                        "\n" + started);
  CHECK(systemd.text == started);
  CHECK(splitter.entries_read() == 4);
  CHECK(splitter.entries_routed() == 3);
  CHECK(splitter.reader().cut_entries() == 1);
}

TEST_CASE("JournalSplitter: once the open slices take under a tenth of a window, it narrows from the last entry") {
  StringSink kernel, kubelet(0);  // full from the start
  JournalSplitter splitter({{JournalSliceMatch(*FindJournalSlice("journal.kernel")), &kernel},
                            {JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &kubelet}});
  const int newest = 3 * JournalSplitter::kWindowEntries;
  const int last_taken = newest - JournalSplitter::kWindowEntries + 1;
  CHECK(splitter.Write(Entries(newest, 1)).ok());
  // In the first window the kernel, the one slice open, took 5 %.
  REQUIRE(splitter.narrowing());
  CHECK(splitter.narrow_cursor() == "s=1;i=" + std::to_string(last_taken));
  CHECK(splitter.open_slices() == std::vector<size_t>{0});
  CHECK(JournalMatchArgs(splitter.open_match()) == std::vector<std::string>{"_TRANSPORT=kernel"});
  CHECK(splitter.entries_read() == JournalSplitter::kWindowEntries);
  // journalctl, ended, stops inside an entry: it is not taken, nor joined to what follows.
  CHECK(splitter.Write("__CURSOR=s=1;i=7\n_TRANSPORT=kernel\nMESSAGE=cut off").ok());
  // The narrower read starts at the cursor's entry, then gives the kernel's older ones.
  splitter.Continue();
  CHECK_FALSE(splitter.narrowing());
  // (Its own entry, here as the kernel's, was taken already: it is passed over.)
  std::string older = "__CURSOR=s=1;i=" + std::to_string(last_taken) + "\n_TRANSPORT=kernel\nMESSAGE=again\n\n";
  for (int seq = last_taken - 1; seq >= 1; --seq) {
    if (seq % 20 == 0) older += Entry(seq);
  }
  CHECK(splitter.Write(older).ok());
  CHECK(splitter.Finish().ok());
  CHECK(Count(kernel.text, "\"MESSAGE\":\"kernel ") == static_cast<size_t>(newest / 20));
  CHECK(kernel.text.find("again") == std::string::npos);
  CHECK(kernel.text.find("cut off") == std::string::npos);
  CHECK(splitter.reader().cut_entries() == 0);
  CHECK(kernel.text.find("\"kernel 20\"") != std::string::npos);
  CHECK_FALSE(splitter.narrowing());
}

TEST_CASE("JournalSplitter: a read the open slices still take a tenth of is not narrowed") {
  StringSink kernel, kubelet;
  JournalSplitter splitter({{JournalSliceMatch(*FindJournalSlice("journal.kernel")), &kernel},
                            {JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &kubelet}});
  CHECK(splitter.Write(Entries(3 * JournalSplitter::kWindowEntries, 1)).ok());
  CHECK(splitter.Finish().ok());
  CHECK_FALSE(splitter.narrowing());
  CHECK(splitter.entries_read() == 3 * JournalSplitter::kWindowEntries);
}

TEST_CASE("JournalSplitter: with every slice full it narrows to nothing, and without cursors never") {
  StringSink kernel(0), kubelet(0);
  JournalSplitter splitter({{JournalSliceMatch(*FindJournalSlice("journal.kernel")), &kernel},
                            {JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &kubelet}});
  CHECK(splitter.Write(Entries(2 * JournalSplitter::kWindowEntries, 1)).ok());
  REQUIRE(splitter.narrowing());
  CHECK(splitter.open_slices().empty());

  StringSink full(0);
  JournalSplitter no_cursor({{JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &full}});
  std::string stream;
  for (int i = 0; i < 2 * JournalSplitter::kWindowEntries; ++i) stream += "_SYSTEMD_UNIT=kubelet.service\nMESSAGE=x\n\n";
  CHECK(no_cursor.Write(stream).ok());
  CHECK_FALSE(no_cursor.narrowing());
  CHECK(no_cursor.entries_read() == 2 * JournalSplitter::kWindowEntries);
}

}  // TEST_SUITE

}  // namespace gpuf
