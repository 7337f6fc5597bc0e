#include "common/json_bytes.h"

#include <doctest/doctest.h>

namespace gpuf {

using nlohmann::json;

TEST_CASE("json bytes: UTF-8 is told from bytes that are not") {
  CHECK(IsUtf8(""));
  CHECK(IsUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  CHECK_FALSE(IsUtf8("caf\xB5"));           // Latin-1 micro sign
  CHECK_FALSE(IsUtf8("\xC0\xAF"));          // overlong '/'
  CHECK_FALSE(IsUtf8("\xED\xA0\x80"));      // a surrogate
  CHECK_FALSE(IsUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  CHECK_FALSE(IsUtf8("\xE2\x82"));          // cut short
}

TEST_CASE("json bytes: escaping marks only the bytes outside UTF-8") {
  CHECK(EscapeNonUtf8("na\xB5me \xC3\xA9") == "na\\xB5me \xC3\xA9");
  CHECK(EscapeNonUtf8("\xE2\x82") == "\\xE2\\x82");
  CHECK(EscapeNonUtf8(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("json bytes: a value that is not UTF-8 round-trips as an array of bytes") {
  const std::string node = std::string("gpu-\xB5-07\0\xFF", 10);
  json doc = {{"node_name", node}, {"argv", {"nvidia-smi", "-q"}}};
  const std::string text = DumpJson(doc, 2, NonUtf8::kByteArray);
  json back = json::parse(text);
  CHECK(back["node_name"].is_array());
  CHECK(back["argv"][0] == "nvidia-smi");
  CHECK(BytesFromJson(back["node_name"]) == node);
  CHECK(BytesFromJson(json("plain")) == "plain");
  CHECK(BytesFromJson(json::array({1, 256})) == std::nullopt);
  CHECK(BytesFromJson(json::array({-1})) == std::nullopt);
  CHECK(BytesFromJson(json(7)) == std::nullopt);
}

TEST_CASE("json bytes: for people, values and keys are escaped text, never an abort") {
  nlohmann::ordered_json doc = {{"line", "caf\xB5"}, {"k\xFF", 1}, {"ok", "\xC3\xA9"}};
  const std::string text = DumpJson(doc, -1, NonUtf8::kEscaped);
  CHECK(text == "{\"line\":\"caf\\\\xB5\",\"k\\\\xFF\":1,\"ok\":\"\xC3\xA9\"}");
  CHECK(DumpJson(json{{"a", 1}}, -1, NonUtf8::kEscaped) == "{\"a\":1}");
}

TEST_CASE("json bytes: AppendJsonString writes what DumpJson writes, byte for byte") {
  std::vector<std::string> inputs = {"",
                                     "plain",
                                     "quote \" backslash \\ slash /",
                                     "tab\tnew\nline\rcr\bbs\fff",
                                     std::string("nul \0 bell \x07 esc \x1b del \x7f", 24),
                                     "caf\xc3\xa9 \xe2\x80\x99",
                                     "latin-1 \xb5 and a cut \xe2\x80",
                                     "\xff\xfe\xc0\xaf"};
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte += static_cast<char>(b);
  inputs.push_back(every_byte);
  for (const auto& in : inputs) {
    std::string appended = "x";
    AppendJsonString(appended, in);
    CHECK(appended == "x" + DumpJson(nlohmann::json(in), -1, NonUtf8::kEscaped));
  }
}

}  // namespace gpuf
