#include "collector/journal_splitter.h"

#include <doctest/doctest.h>

#include <string>

namespace gpuf {

namespace {

class StringSink : public ByteSink {
 public:
  Status Write(std::string_view bytes) override {
    text += bytes;
    return Status::Ok();
  }
  std::string text;
};

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

}  // TEST_SUITE

}  // namespace gpuf
