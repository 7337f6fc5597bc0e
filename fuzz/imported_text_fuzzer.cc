// Other tools' captures (importer/): one saved text through one of the
// conversions a sos report, bug report or evidence folder may need. The first
// byte picks the conversion (low four bits) and the date hints (high bits);
// the rest is the text.
#include "fuzz/fuzz_input.h"
#include "importer/conversions.h"

namespace {

constexpr gpuf::Conversion kConversions[] = {
    gpuf::Conversion::kAsIs,        gpuf::Conversion::kJournalText, gpuf::Conversion::kDmesg,
    gpuf::Conversion::kLsListing,   gpuf::Conversion::kCrictlTable, gpuf::Conversion::kPluginLog,
    gpuf::Conversion::kSmiQuery,    gpuf::Conversion::kVersions,    gpuf::Conversion::kUptimeSince,
    gpuf::Conversion::kPluginInspect, gpuf::Conversion::kStaticPod,
};
constexpr size_t kCount = sizeof(kConversions) / sizeof(kConversions[0]);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  gpuf::SourcePiece piece;
  piece.conversion = kConversions[(selector & 0x0f) % kCount];  // high bits: the flags below
  piece.name = "journal.kubelet";
  piece.instance = selector & 0x80 ? "boot:-1" : "boot:0";
  piece.source_file = "fuzz";
  piece.host_path = "/var/lib/kubelet/device-plugins";
  piece.bytes = gpuf::FuzzText(data + 1, size - 1);
  gpuf::TimeHints hints;
  hints.year = 2026;
  hints.not_after_ns = selector & 0x40 ? 1794971880000000000LL : 0;
  hints.utc_offset_seconds = selector & 0x20 ? 8 * 3600 : -5 * 3600;
  gpuf::ImportPlan plan;
  gpuf::ApplyConversion(piece, hints, plan);
  (void)gpuf::InferUtcOffsetFromJournal(piece.bytes);
  (void)gpuf::UtcOffsetFromDateText(piece.bytes);
  (void)gpuf::ParseDateAsUtc(piece.bytes);
  (void)gpuf::ParseUptimeSince(piece.bytes, hints.utc_offset_seconds);
  return 0;
}
