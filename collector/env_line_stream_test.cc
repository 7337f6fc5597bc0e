#include "collector/env_line_stream.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// The lines of `text` through one EnvLineStream, fed one at a time as a stream would.
std::string Streamed(const std::string& text) {
  EnvLineStream stream;
  std::string out;
  const EnvLineStream::Sink append = [&](std::string& line, const std::string& ending) { out += line + ending; };
  size_t start = 0;
  while (start < text.size()) {
    size_t newline = text.find('\n', start);
    size_t end = newline == std::string::npos ? text.size() : newline;
    stream.Line(text.substr(start, end - start), newline == std::string::npos ? "" : "\n", append);
    start = end + 1;
  }
  stream.Finish(append);
  return out;
}

}  // namespace

TEST_CASE("EnvLineStream: a value before its name is judged by the name") {
  CHECK(Streamed("env:\n- value: s3cret\n  name: REGISTRY_TOKEN\n- value: \"single\"\n  name: MIG_STRATEGY\n") ==
        "env:\n- value: <redacted>\n  name: REGISTRY_TOKEN\n- value: \"single\"\n  name: MIG_STRATEGY\n");
  // Other keys of the item may come between.
  CHECK(Streamed("    - value: \"false\"\n      note: x\n      name: FAIL_ON_INIT_ERROR\n") ==
        "    - value: \"false\"\n      note: x\n      name: FAIL_ON_INIT_ERROR\n");
}

TEST_CASE("EnvLineStream: a value whose name never comes is redacted, and nothing is lost or reordered") {
  CHECK(Streamed("items:\n- value: orphan\nnext: 1\n") == "items:\n- value: <redacted>\nnext: 1\n");
  CHECK(Streamed("- value: last") == "- value: <redacted>");
  CHECK(Streamed("a\nb\n- name: X\n  value: y\nc") == "a\nb\n- name: X\n  value: <redacted>\nc");
}

}  // namespace gpuf
