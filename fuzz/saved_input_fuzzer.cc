// A file saved by hand (importer/input_shapes.h): recognised, its prompts
// and transcript parts taken apart, and the conversions only saved outputs
// need (systemctl status, a kubelet's own klog) run on it.
#include "fuzz/fuzz_input.h"
#include "importer/input_shapes.h"
#include "importer/journal_text.h"
#include "importer/saved_text.h"
#include "importer/systemctl_status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = gpuf::FuzzText(data, size);
  (void)gpuf::RecogniseInput(text, "saved.txt");
  (void)gpuf::SplitTranscript(text);
  (void)gpuf::KlogWriter(text);
  (void)gpuf::ConvertSystemctlStatus(text);
  gpuf::TimeHints hints;
  hints.year = 2026;
  (void)gpuf::ConvertKlogAsJournal(text, "kubelet", hints);
  return 0;
}
