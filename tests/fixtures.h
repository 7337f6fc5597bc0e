// Real captured outputs for parser tests (tests/fixtures/). Files copied from
// public sources start with a "# source: URL" line, which Fixture() drops.
#ifndef GPUF_TESTS_FIXTURES_H_
#define GPUF_TESTS_FIXTURES_H_

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tests/test_support.h"

namespace gpuf::test {

inline std::string Fixture(const std::string& relative) {
  std::string path = SourcePath("tests/fixtures/" + relative);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.rfind("# source:", 0) == 0) text.erase(0, text.find('\n') + 1);
  return text;
}

// Terminal transcripts keep their prompt lines ("$ cmd", "# cmd",
// "root@host:~# cmd"); the collector stores a command's output alone.
inline std::string DropPromptLines(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    std::string line = text.substr(start, end - start + 1);
    bool prompt = line.rfind("$ ", 0) == 0 || line.rfind("# ", 0) == 0 ||
                  (line.find('@') != std::string::npos &&
                   (line.find("# ") != std::string::npos || line.find("$ ") != std::string::npos));
    if (!prompt) out += line;
    start = end + 1;
  }
  return out;
}

}  // namespace gpuf::test

#endif  // GPUF_TESTS_FIXTURES_H_
