// Real captured outputs for parser tests (tests/fixtures/). Files copied from
// public sources start with a "# source: URL" line, which Fixture() drops.
#ifndef GPUF_TESTS_FIXTURES_H_
#define GPUF_TESTS_FIXTURES_H_

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gpuf::test {

inline std::string Fixture(const std::string& relative) {
  std::string path = std::string(GPUF_SOURCE_DIR) + "/tests/fixtures/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.rfind("# source:", 0) == 0) text.erase(0, text.find('\n') + 1);
  return text;
}

}  // namespace gpuf::test

#endif  // GPUF_TESTS_FIXTURES_H_
