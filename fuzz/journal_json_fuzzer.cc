// `journalctl -o json` output, one entry a line, as the journal loader reads it.
#include "formats/journal_json.h"
#include "formats/json_syntax.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = gpuf::FuzzText(data, size);
  gpuf::ForEachLine(text, [](std::string_view line) { (void)gpuf::ParseJournalJsonLine(line); });
  (void)gpuf::JsonSyntaxWarning(text);
  return 0;
}
