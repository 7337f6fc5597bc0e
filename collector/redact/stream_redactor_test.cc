#include "collector/redact/stream_redactor.h"

#include <doctest/doctest.h>

#include "collector/redact/literal_learner.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// Feeds `input` in chunks of `chunk` bytes and returns what came out.
std::string Stream(TextRedactor& redactor, const std::string& input, size_t chunk, RedactionCounts& counts) {
  test::TempDir dir;
  const std::string path = dir / "out";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  StreamRedactor stream(&redactor, f, &counts);
  for (size_t at = 0; at < input.size(); at += chunk) REQUIRE(stream.Feed(std::string_view(input).substr(at, chunk)).ok());
  REQUIRE(stream.Finish().ok());
  CHECK(stream.size_bytes() == static_cast<int64_t>(test::ReadFile(path).size()));
  std::fclose(f);
  return test::ReadFile(path);
}

}  // namespace

TEST_SUITE("stream_redactor") {

TEST_CASE("StreamRedactor: line endings survive any chunking, a private key goes whole") {
  const std::string input =
      "peer 10.0.0.1\r\n"
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----\n"
      "{\"MESSAGE\":\"peer 10.0.0.1\"}\n"
      "last 10.0.0.2";
  for (size_t chunk : {1, 3, 7, 1000}) {
    PseudonymMap map;
    TextRedactor redactor(*ChooseClasses(""), &map);
    redactor.Seal();
    RedactionCounts counts;
    CHECK(Stream(redactor, input, chunk, counts) ==
          "peer 192.0.2.1\r\n"
          "-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----\n"
          "{\"MESSAGE\":\"peer 192.0.2.1\"}\n"
          "last 192.0.2.2");
    CHECK(counts == RedactionCounts{{"ipv4", 3}, {"secret", 1}});
  }
}

TEST_CASE("StreamRedactor: a key block that never ends takes nothing with it") {
  PseudonymMap map;
  TextRedactor redactor(*ChooseClasses(""), &map);
  redactor.Seal();
  RedactionCounts counts;
  CHECK(Stream(redactor, "a\n-----BEGIN PRIVATE KEY-----\nMIIEow\n", 4, counts) ==
        "a\n-----BEGIN PRIVATE KEY-----<redacted>\n");
}

TEST_CASE("LiteralLearner: names are learned where they are written with their meaning") {
  PseudonymMap map;
  TextRedactor redactor(*ChooseClasses("+k8s_name,+gpu_id"), &map);
  LiteralLearner learner(&redactor);
  Manifest manifest;
  manifest.hostname = manifest.node_name = "gpu-node-7";
  manifest.plugin_pattern = "(nvidia|gpu).*device-plugin|device-plugin.*(nvidia|gpu)";
  learner.LearnFromManifest(manifest);
  learner.BeginMember("journal.kubelet");
  learner.Line(R"({"_HOSTNAME":"gpu-node-7.corp.example","_MACHINE_ID":"4f1c2b3a4d5e6f708192a3b4c5d6e7f8",)"
               R"("MESSAGE":"I1118 \"Pod\" pod=\"ml-team/trainer-7d9f\" node=\"gpu-node-7\""})");
  learner.Line("Nov 18 sshd[1]: Accepted publickey for alice from 10.0.0.9; sudo: bob : TTY=pts/0 ; PWD=/home/carol; New session 7 of user dave.");
  learner.EndMember();
  learner.BeginMember("k8s.node");
  learner.Line(R"({"metadata": {"name": "gpu-node-7"}, "spec": {"providerID": "aws:///us-west-2b/i-0a1b2c3d4e5f67890"},)");
  learner.Line(R"( "status": {"addresses": [{"address": "ip-10-0-0-7.ec2.internal", "type": "InternalDNS"}]}})");
  learner.EndMember();
  learner.BeginMember("host.nvidia_smi_query_xml");
  learner.Line("<serial>1652123456789</serial>");
  learner.EndMember();
  redactor.Seal();
  RedactionCounts counts;
  std::string text =
      "gpu-node-7.corp.example gpu-node-7 ip-10-0-0-7.ec2.internal 4f1c2b3a4d5e6f708192a3b4c5d6e7f8 alice bob carol dave "
      "ml-team/trainer-7d9f i-0a1b2c3d4e5f67890 1652123456789 us-west-2b";
  redactor.RedactText(text, counts);
  CHECK(text ==
        "node-0001 node-0002 node-0003 00000000000040008000000000000001 user-0001 user-0002 user-0003 user-0004 "
        "ns-0001/pod-0001 cloud-0001 9000000000001 us-west-2b");
}

}  // TEST_SUITE

}  // namespace gpuf
