#include "collector/journal_splitter.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

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

const std::string kKernel =
    R"({"__REALTIME_TIMESTAMP":"1763436496123456","_TRANSPORT":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:17:00): 79"})"
    "\n";
const std::string kKubelet =
    R"({"_SYSTEMD_UNIT":"kubelet.service","_PID":"2210","MESSAGE":"I1118 \"_TRANSPORT\":\"kernel\" quoted"})"
    "\n";
// systemd 219-245 spaced its keys and values.
const std::string kSystemdAboutKubelet =
    R"({ "_PID" : "1", "UNIT" : "kubelet.service", "MESSAGE" : [ 83, 116 ], "_SYSTEMD_UNIT" : "init.scope" })"
    "\n";

}  // namespace

TEST_SUITE("journal_splitter") {

TEST_CASE("ReadJournalJsonFields: string values by name, either spacing, arrays and escapes passed over") {
  std::vector<std::string> values;
  const std::vector<std::string> fields = {"_TRANSPORT", "_PID", "UNIT", "MESSAGE"};
  REQUIRE(ReadJournalJsonFields(kKubelet.substr(0, kKubelet.size() - 1), fields, values));
  CHECK(values == std::vector<std::string>{"", "2210", "", "I1118 \"_TRANSPORT\":\"kernel\" quoted"});
  REQUIRE(ReadJournalJsonFields(kSystemdAboutKubelet.substr(0, kSystemdAboutKubelet.size() - 1), fields, values));
  CHECK(values == std::vector<std::string>{"", "1", "kubelet.service", ""});
  CHECK(!ReadJournalJsonFields("-- No entries --", fields, values));
  CHECK(!ReadJournalJsonFields(R"({"_PID":"1")", fields, values));
  CHECK(!ReadJournalJsonFields(R"({"_PID":"1"} trailing)", fields, values));
  CHECK(ReadJournalJsonFields("{}", fields, values));
}

TEST_CASE("JournalSplitter: each entry goes to every slice that selects it, split across writes") {
  StringSink kernel, kubelet, systemd;
  JournalSplitter splitter({{JournalSliceMatch(*FindJournalSlice("journal.kernel")), &kernel},
                            {JournalSliceMatch(*FindJournalSlice("journal.kubelet")), &kubelet},
                            {JournalSliceMatch(*FindJournalSlice("journal.systemd")), &systemd}});
  const std::string all = kKubelet + kKernel + kSystemdAboutKubelet + "not json\n" + kKernel.substr(0, 40);
  for (size_t at = 0; at < all.size(); at += 7) CHECK(splitter.Write(std::string_view(all).substr(at, 7)).ok());
  CHECK(splitter.Finish().ok());
  CHECK(kernel.text == kKernel);  // the cut last line is no entry
  CHECK(kubelet.text == kKubelet + kSystemdAboutKubelet);
  CHECK(systemd.text == kSystemdAboutKubelet);
  CHECK(splitter.unrouted_lines() == 2);
}

}  // TEST_SUITE

}  // namespace gpuf
