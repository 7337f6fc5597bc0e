// journalctl -o export as collect reads it (a journal under --root may be
// anyone's): split into every slice twice, whole and in 7-byte pieces. Every
// line stored must be one JSON object, and the pieces must not change a byte.
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collector/journal_splitter.h"
#include "common/journal_slices.h"
#include "fuzz/fuzz_input.h"

namespace {

class CheckedSink : public gpuf::ByteSink {
 public:
  gpuf::Status Write(std::string_view bytes) override {
    text += bytes;
    return gpuf::Status::Ok();
  }
  std::string text;
};

std::vector<std::string> Split(std::string_view input, size_t piece) {
  std::vector<CheckedSink> sinks(gpuf::JournalSliceTable().size());
  std::vector<gpuf::JournalSplitter::Slice> slices;
  for (size_t i = 0; i < sinks.size(); ++i) {
    slices.push_back({gpuf::JournalSliceMatch(gpuf::JournalSliceTable()[i]), &sinks[i]});
  }
  gpuf::JournalSplitter splitter(std::move(slices));
  for (size_t at = 0; at < input.size(); at += piece) (void)splitter.Write(input.substr(at, piece));
  (void)splitter.Finish();
  std::vector<std::string> out;
  for (auto& sink : sinks) out.push_back(std::move(sink.text));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input = gpuf::FuzzText(data, size);
  const std::vector<std::string> whole = Split(input, input.size() + 1);
  if (Split(input, 7) != whole) std::abort();
  for (const auto& text : whole) {
    if (!text.empty() && text.back() != '\n') std::abort();
    gpuf::ForEachLine(text, [](std::string_view line) {
      if (line.empty()) return;
      auto doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (!doc.is_object()) std::abort();
    });
  }
  return 0;
}
