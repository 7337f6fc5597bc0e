// A rule file's text through ParseRuleText: yaml-cpp, the field checks, RE2
// compilation of every pattern, conditions and summary placeholders. The file
// is named after the text's own `id:` so that parsing goes past the id check.
#include <string>

#include "analyzer/rules/rule_parser.h"
#include "fuzz/fuzz_input.h"

namespace {

std::string FileNameFor(std::string_view text) {
  std::string id = "fuzz";
  gpuf::ForEachLine(text, [&](std::string_view line) {
    if (line.substr(0, 4) != "id: ") return;
    std::string_view value = line.substr(4);
    if (!value.empty() && value.size() < 64 && value.find('/') == std::string_view::npos)
      id = std::string(value);
  });
  return "rules/" + id + ".yaml";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = gpuf::FuzzText(data, size);
  (void)gpuf::ParseRuleText(FileNameFor(text), text);
  return 0;
}
