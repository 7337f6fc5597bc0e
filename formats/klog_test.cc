#include "formats/klog.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include "common/text_lines.h"
#include "tests/fixtures.h"

namespace gpuf {

TEST_SUITE("klog") {

TEST_CASE("ParseKlogHeader: a container line with PID 1 right-aligned") {
  // Real line: formats/device-plugin_klog_xid-unhealthy_cloud-native-docs.txt
  auto h = ParseKlogHeader(
      "I0624 22:58:05.486727       1 server.go:276] 'nvidia.com/gpu' device marked unhealthy: "
      "GPU-adb24b25-1db1-436e-d958-ddee5da83d07");
  REQUIRE(h);
  CHECK(h->severity == 'I');
  CHECK(h->month == 6);
  CHECK(h->day == 24);
  CHECK(h->hour == 22);
  CHECK(h->minute == 58);
  CHECK(h->second == 5);
  CHECK(h->microsecond == 486727);
  CHECK(h->pid == 1);
  CHECK(h->file == "server.go");
  CHECK(h->source_line == 276);
  CHECK(h->message == "'nvidia.com/gpu' device marked unhealthy: GPU-adb24b25-1db1-436e-d958-ddee5da83d07");
}

TEST_CASE("ParseKlogHeader: host PIDs of six and seven digits") {
  // Real lines: formats/kubelet-klog_v1.31-registration-and-allocation_ihcsim-kubelet-plugin.txt
  auto wide = ParseKlogHeader(
      "I0823 09:22:35.030374 1309759 handler.go:95] \"Registered client\" name=\"github.com.ihcsim/crand\"");
  REQUIRE(wide);
  CHECK(wide->pid == 1309759);
  CHECK(wide->file == "handler.go");
  CHECK(wide->message == "\"Registered client\" name=\"github.com.ihcsim/crand\"");
  auto padded = ParseKlogHeader(
      "E0915 17:29:35.631091    6443 kubelet.go:2448] \"Error getting node\" err=\"node \"instance\" not found\"");
  REQUIRE(padded);
  CHECK(padded->severity == 'E');
  CHECK(padded->pid == 6443);
  CHECK(padded->source_line == 2448);
}

TEST_CASE("ParseKlogHeader: a header with an empty message (multi-line Infof)") {
  // Real shape: device plugin v0.17 "Running with config:" dump, the header
  // line ends at "]" because the message starts with a newline.
  auto h = ParseKlogHeader("I1023 10:14:11.986423       1 main.go:314]");
  REQUIRE(h);
  CHECK(h->message.empty());
  CHECK(h->source_line == 314);
}

TEST_CASE("ParseKlogHeader: the docs fixture has six headers, continuations and JSON have none") {
  std::string text = test::Fixture("formats/klog-formats_k8s-system-logs-docs.txt");
  int headers = 0;
  int others = 0;
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.empty()) return;
    if (ParseKlogHeader(line)) {
      ++headers;
    } else {
      ++others;
    }
  });
  CHECK(headers == 6);
  CHECK(others == 12);  // two continuation lines and ten lines of pretty-printed JSON
}

TEST_CASE("ParseKlogHeader: a message with bytes that are not UTF-8") {
  auto h = ParseKlogHeader("E0624 22:58:05.486727       1 main.go:9] bad \xff\xfe bytes");
  REQUIRE(h);
  CHECK(h->message == "bad \xff\xfe bytes");
  auto g = ParseGoLogHeader("2021/04/26 23:19:16 \x1b[31mred\x1b[0m \xc3");
  REQUIRE(g);
  CHECK(g->message == "\x1b[31mred\x1b[0m \xc3");
}

TEST_CASE("ParseKlogHeader: other formats are refused") {
  CHECK_FALSE(ParseKlogHeader("2021/04/26 23:19:15 Loading NVML"));
  CHECK_FALSE(ParseKlogHeader("which has a line break."));
  CHECK_FALSE(ParseKlogHeader("X1025 00:15:15.525108       1 a.go:1] bad severity"));
  CHECK_FALSE(ParseKlogHeader("I1325 00:15:15.525108       1 a.go:1] month 13"));
}

TEST_CASE("ParseGoLogHeader: old device plugin lines, with and without microseconds") {
  // Real line: formats/device-plugin_golog-old-format_mig-k8s_cloud-native-docs.txt
  auto h = ParseGoLogHeader("2021/04/26 23:19:16 Starting GRPC server for 'nvidia.com/gpu'");
  REQUIRE(h);
  CHECK(h->year == 2021);
  CHECK(h->month == 4);
  CHECK(h->day == 26);
  CHECK(h->second == 16);
  CHECK(h->microsecond == 0);
  CHECK(h->message == "Starting GRPC server for 'nvidia.com/gpu'");
  auto micro = ParseGoLogHeader("2021/04/26 23:19:16.123456 Loading NVML");
  REQUIRE(micro);
  CHECK(micro->microsecond == 123456);
  CHECK(micro->message == "Loading NVML");
  auto empty = ParseGoLogHeader("2022/08/22 17:27:44 ");
  REQUIRE(empty);
  CHECK(empty->message.empty());
  CHECK_FALSE(ParseGoLogHeader("I0624 22:58:05.486593       1 health.go:159] x"));
}

TEST_CASE("KlogTime: the CRI timestamp carries the year, container clock is UTC") {
  // Real line: formats/crictl-logs-t_klog-inside_cri-tools-205.txt
  //   2017-11-29T00:45:40.979020878Z I1129 00:45:40.978789       1 dns.go:48] version: ...
  auto h = ParseKlogHeader("I1129 00:45:40.978789       1 dns.go:48] version: 1.14.6-3-gc36cb11");
  REQUIRE(h);
  auto t = KlogTime(*h, LineClock{1511916340979020878LL, 0, false});
  REQUIRE(t);
  CHECK(t->time_ns == 1511916340978789000LL);
  CHECK(t->year_inferred);
  CHECK(t->zone_assumed);
}

TEST_CASE("KlogTime: a December line carried in January belongs to the previous year") {
  auto h = ParseKlogHeader("W1231 23:59:59.999999       1 main.go:1] late");
  REQUIRE(h);
  // Carrier 2026-01-01T00:00:00.5Z.
  auto t = KlogTime(*h, LineClock{1767225600500000000LL, 0, true});
  REQUIRE(t);
  CHECK(t->time_ns == 1767225599999999000LL);  // 2025-12-31T23:59:59.999999Z
  CHECK_FALSE(t->zone_assumed);
}

TEST_CASE("KlogTime: a host kubelet line is local time at the host offset") {
  // Real line: formats/kubelet-klog_device-plugin-registration-unstructured_k8s-device-plugin-178.txt
  auto h = ParseKlogHeader(
      "I0601 11:41:24.847969   11402 manager.go:411] Got registration request from device plugin "
      "with resource name \"nvidia.com/gpu\"");
  REQUIRE(h);
  // Journal realtime 2020-06-01T03:41:25Z, host zone +08:00.
  auto t = KlogTime(*h, LineClock{1590982885000000000LL, 8 * 3600, true});
  REQUIRE(t);
  CHECK(t->time_ns == 1590982884847969000LL);  // 2020-06-01T03:41:24.847969Z
}

TEST_CASE("KlogTime: the carrier's month is read in the writer's zone") {
  // Carrier 2025-12-31T16:00:00Z is already 2026-01-01 at +08:00, so a
  // January line is in 2026, not in January 2025.
  auto h = ParseKlogHeader("I0101 00:00:00.100000       1 main.go:1] new year");
  REQUIRE(h);
  auto t = KlogTime(*h, LineClock{1767196800000000000LL, 8 * 3600, true});
  REQUIRE(t);
  CHECK(t->time_ns == 1767196800100000000LL);  // 2026-01-01T00:00:00.1+08:00
}

TEST_CASE("KlogTime: a date that does not exist in the inferred year is refused") {
  auto h = ParseKlogHeader("I0229 10:00:00.000000       1 main.go:1] leap day");
  REQUIRE(h);
  CHECK_FALSE(KlogTime(*h, LineClock{1767225600500000000LL, 0, true}));  // 2026: not a leap year
}

TEST_CASE("GoLogTime: the year is written, only the zone can be assumed") {
  auto h = ParseGoLogHeader("2021/04/26 23:19:16 Starting GRPC server for 'nvidia.com/gpu'");
  REQUIRE(h);
  auto t = GoLogTime(*h, LineClock{0, 0, false});
  REQUIRE(t);
  CHECK(t->time_ns == 1619479156000000000LL);
  CHECK_FALSE(t->year_inferred);
  CHECK(t->zone_assumed);
  auto m = ParseGoLogHeader("2021/04/26 23:19:16.123456 x");
  REQUIRE(m);
  auto local = GoLogTime(*m, LineClock{0, 2 * 3600, true});
  REQUIRE(local);
  CHECK(local->time_ns == 1619471956123456000LL);
}

TEST_CASE("GoLogTime: a year past what nanoseconds can hold is refused, not overflowed") {
  auto far = ParseGoLogHeader("4046/06/22 14:25:38 Retreiving plugins.");
  REQUIRE(far);
  CHECK_FALSE(GoLogTime(*far, LineClock{0, 0, false}));
  auto last = ParseGoLogHeader("2262/04/11 23:47:15 x");
  REQUIRE(last);
  CHECK(GoLogTime(*last, LineClock{0, 0, false}));
  auto early = ParseGoLogHeader("1000/01/01 00:00:00 x");
  REQUIRE(early);
  CHECK_FALSE(GoLogTime(*early, LineClock{0, 0, false}));
}

TEST_CASE("SplitStructuredMessage: quoted values") {
  // Real line: formats/klog-formats_k8s-system-logs-docs.txt
  auto m = SplitStructuredMessage(R"("Pod status updated" pod="kube-system/kubedns" status="ready")");
  REQUIRE(m);
  CHECK(m->message == "Pod status updated");
  REQUIRE(m->fields.size() == 2);
  CHECK(m->fields[0].key == "pod");
  CHECK(m->fields[0].value == "kube-system/kubedns");
  CHECK(m->fields[0].quoted);
  CHECK(m->fields[1].key == "status");
  CHECK(m->fields[1].value == "ready");
  CHECK(m->unparsed.empty());
}

TEST_CASE("SplitStructuredMessage: Go escapes, numbers and a struct that spans lines") {
  // Real two-line entry: formats/klog-formats_k8s-system-logs-docs.txt
  auto m = SplitStructuredMessage(
      "\"Example\" data=\"This is text with a line break\\nand \\\"quotation marks\\\".\" someInt=1 "
      "someFloat=0.1 someStruct={StringField: First line,\nsecond line.}");
  REQUIRE(m);
  CHECK(m->message == "Example");
  REQUIRE(m->fields.size() == 4);
  CHECK(m->fields[0].value == "This is text with a line break\nand \"quotation marks\".");
  CHECK(m->fields[1].key == "someInt");
  CHECK(m->fields[1].value == "1");
  CHECK_FALSE(m->fields[1].quoted);
  CHECK(m->fields[2].value == "0.1");
  CHECK(m->fields[3].key == "someStruct");
  CHECK(m->fields[3].value == "{StringField: First line,\nsecond line.}");
  CHECK(m->unparsed.empty());
}

TEST_CASE("SplitStructuredMessage: lists, repeated keys and error text with spaces") {
  // Real lines: formats/kubelet-klog_v1.31-registration-and-allocation_ihcsim-kubelet-plugin.txt,
  // formats/klog-formats_k8s-system-logs-docs.txt,
  // formats/kubelet-klog_device-plugin-registration-structured_kubevirt-gpu-dp-55.txt
  auto list = SplitStructuredMessage(
      R"("Making allocation request for device plugin" devices=["crand1","crand0"] resourceName="github.com.ihcsim/crand")");
  REQUIRE(list);
  REQUIRE(list->fields.size() == 2);
  CHECK(list->fields[0].value == R"(["crand1","crand0"])");
  CHECK(list->fields[1].value == "github.com.ihcsim/crand");

  auto repeated = SplitStructuredMessage(
      R"("another runtime" logger="example" foo="bar" duration="1h0m0s" duration="1m0s")");
  REQUIRE(repeated);
  REQUIRE(repeated->fields.size() == 4);
  CHECK(repeated->fields[2].value == "1h0m0s");
  CHECK(repeated->fields[3].value == "1m0s");

  auto err = SplitStructuredMessage(
      R"("Unable to connect to device plugin client with socket path" err="failed to dial device plugin: context deadline exceeded" path="/var/lib/kubelet/device-plugins/kubevirt-***.sock")");
  REQUIRE(err);
  REQUIRE(err->fields.size() == 2);
  CHECK(err->fields[0].value == "failed to dial device plugin: context deadline exceeded");
  CHECK(err->fields[1].value == "/var/lib/kubelet/device-plugins/kubevirt-***.sock");
}

TEST_CASE("SplitStructuredMessage: quotes whose backslashes were lost stay in the value") {
  // Real line: formats/kubelet-klog_structured-in-journal_ansible-role-kubernetes-125.txt
  auto m = SplitStructuredMessage(R"("Error getting node" err="node "instance" not found")");
  REQUIRE(m);
  CHECK(m->message == "Error getting node");
  REQUIRE(m->fields.size() == 1);
  CHECK(m->fields[0].key == "err");
  CHECK(m->fields[0].value == R"(node "instance" not found)");
}

TEST_CASE("SplitStructuredMessage: klog's multi-line value form") {
  // Real shape: device plugin v0.18.0 banner (NVIDIA/k8s-device-plugin#1470),
  // the three continuation lines joined to the header line.
  auto m = SplitStructuredMessage(
      "\"Starting NVIDIA Device Plugin\" version=<\n\t3c9ffca9\n"
      "\tcommit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592\n >");
  REQUIRE(m);
  CHECK(m->message == "Starting NVIDIA Device Plugin");
  REQUIRE(m->fields.size() == 1);
  CHECK(m->fields[0].key == "version");
  CHECK(m->fields[0].value == "3c9ffca9\ncommit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592");
  auto cut = SplitStructuredMessage("\"Starting NVIDIA Device Plugin\" version=<");
  REQUIRE(cut);
  REQUIRE(cut->fields.size() == 1);
  CHECK(cut->fields[0].value == "<");
}

TEST_CASE("SplitStructuredMessage: unstructured text and tails") {
  CHECK_FALSE(SplitStructuredMessage("Starting Plugins."));
  CHECK_FALSE(SplitStructuredMessage("\"never closed"));
  auto tail = SplitStructuredMessage(R"("Message" key="v" then free text)");
  REQUIRE(tail);
  REQUIRE(tail->fields.size() == 1);
  CHECK(tail->unparsed == "then free text");
  auto escapes = SplitStructuredMessage(R"("caf\u00e9 \x41\t")");
  REQUIRE(escapes);
  CHECK(escapes->message == "caf\xc3\xa9 A\t");
}


namespace {

// The regular expression ParseKlogHeader was first written with: the
// reference its hand-written reader is held to.
std::optional<KlogHeader> ReferenceKlogHeader(std::string_view line) {
  static const RE2 header(
      R"((?s)([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) +(\d+) ([^:\]\s]+):(\d+)\](?: (.*))?)",
      RE2::Latin1);
  KlogHeader h;
  std::string severity;
  if (!RE2::FullMatch(re2::StringPiece(line.data(), line.size()), header, &severity, &h.month, &h.day, &h.hour,
                      &h.minute, &h.second, &h.microsecond, &h.pid, &h.file, &h.source_line, &h.message)) {
    return std::nullopt;
  }
  if (h.month < 1 || h.month > 12 || h.day < 1 || h.day > 31 || h.hour > 23 || h.minute > 59 || h.second > 60) {
    return std::nullopt;
  }
  h.severity = severity[0];
  return h;
}

bool SameHeader(const std::optional<KlogHeader>& a, const std::optional<KlogHeader>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->severity == b->severity && a->month == b->month && a->day == b->day && a->hour == b->hour &&
         a->minute == b->minute && a->second == b->second && a->microsecond == b->microsecond &&
         a->pid == b->pid && a->file == b->file && a->source_line == b->source_line && a->message == b->message;
}

}  // namespace

TEST_CASE("ParseKlogHeader: reads every line as the reference expression does, damaged ones too") {
  const std::vector<std::string> lines = {
      "I1017 12:05:33.312491    1667 main.go:246] inotify: /var/lib/kubelet/device-plugins/kubelet.sock created",
      "E0101 00:00:00.000000 1 server.go:9]",
      "W1231 23:59:60.999999 4194304 a:1] \xff\n\tcontinued",
      "F0229 01:02:03.040506   99999999999999999999 x.go:1] overflow",
      "I0612 10:11:12.131415 7 manager.go:123456789012] line overflow",
  };
  const std::string replacements = std::string("0 9:].IWEFa\t\n-") + '\xff';
  int compared = 0;
  for (const std::string& line : lines) {
    std::vector<std::string> variants = {line, line + " ", line + "]", ""};
    for (size_t i = 0; i < line.size() && i < 48; ++i) {
      variants.push_back(line.substr(0, i));
      variants.push_back(line.substr(0, i) + line.substr(i + 1));
      for (char c : replacements) variants.push_back(line.substr(0, i) + c + line.substr(i + 1));
      variants.push_back(line.substr(0, i) + " " + line.substr(i));
    }
    for (const std::string& v : variants) {
      CHECK_MESSAGE(SameHeader(ParseKlogHeader(v), ReferenceKlogHeader(v)), v);
      ++compared;
    }
  }
  CHECK(compared > 3000);
  CHECK(ReferenceKlogHeader(lines[0]).has_value());
}

}  // TEST_SUITE

}  // namespace gpuf
