// Text through the redactor that `collect` and `gpuforensics redact` use:
// the first line is learned as a hostname, every other line is redacted as a
// bundle line is (JSON-looking lines string by string).
#include <cstdlib>
#include <set>
#include <string>

#include "collector/redact/pseudonym_map.h"
#include "collector/redact/redact_class.h"
#include "collector/redact/text_redactor.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::set<std::string> classes = [] {
    auto chosen = gpuf::ChooseClasses("");
    if (!chosen.ok()) std::abort();
    return *chosen;
  }();
  // A missing map file is an empty map.
  auto map = gpuf::PseudonymMap::Load("/nonexistent/gpuf-fuzz-pseudonyms.json");
  if (!map.ok()) std::abort();
  gpuf::TextRedactor redactor(classes, &*map);
  std::string_view text = gpuf::FuzzText(data, size);
  size_t first = text.find('\n');
  redactor.AddLiteral(gpuf::Family::kHostname, text.substr(0, first));
  redactor.Seal();
  if (first == std::string_view::npos) return 0;
  gpuf::RedactionCounts counts;
  gpuf::ForEachLine(text.substr(first + 1), [&](std::string_view line) {
    std::string copy(line);
    redactor.RedactLine(copy, counts);
  });
  return 0;
}
