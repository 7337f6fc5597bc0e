#include "collector/journal_splitter.h"

#include <algorithm>

namespace gpuf {

namespace {

// Routed lines are written a block at a time, not a line at a time.
constexpr size_t kFlushBytes = 64 * 1024;

}  // namespace

JournalSplitter::JournalSplitter(std::vector<Slice> slices)
    : slices_(std::move(slices)),
      pending_(slices_.size()),
      reader_([this](const JournalExportEntry& entry) { Route(entry); }) {
  std::vector<JournalMatch> matches;
  for (const auto& slice : slices_) matches.push_back(slice.match);
  fields_ = JournalMatchFields(JournalMatchUnion(matches));
  values_.resize(fields_.size());
}

Status JournalSplitter::Write(std::string_view bytes) {
  reader_.Feed(bytes);
  return first_error_;
}

Status JournalSplitter::Finish() {
  reader_.Finish();
  for (size_t i = 0; i < slices_.size(); ++i) Flush(i);
  return first_error_;
}

void JournalSplitter::Flush(size_t slice) {
  if (pending_[slice].empty()) return;
  Status written = slices_[slice].sink->Write(pending_[slice]);
  if (!written.ok() && first_error_.ok()) first_error_ = written;
  pending_[slice].clear();
}

JournalMatch JournalSplitter::open_match() const {
  std::vector<JournalMatch> matches;
  for (size_t i : open_slices_) matches.push_back(slices_[i].match);
  return JournalMatchUnion(matches);
}

void JournalSplitter::Continue() {
  reader_.Reset();
  skip_cursor_ = narrow_cursor_;
  continued_ = true;
}

void JournalSplitter::Watch(const JournalExportEntry& entry, bool kept_by_open_slice) {
  ++window_read_;
  if (kept_by_open_slice) ++window_kept_;
  if (window_read_ < kWindowEntries) return;
  const bool wasted = window_kept_ * 10 < window_read_;
  window_read_ = 0;
  window_kept_ = 0;
  if (!wasted || continued_) return;
  std::string_view cursor = JournalExportValue(entry, "__CURSOR");
  if (cursor.empty()) return;  // nowhere to go on from
  narrow_cursor_ = std::string(cursor);
  for (size_t i = 0; i < slices_.size(); ++i) {
    if (!slices_[i].sink->Full()) open_slices_.push_back(i);
  }
}

void JournalSplitter::Route(const JournalExportEntry& entry) {
  // Past the cursor the narrower read gives again what an open slice selects.
  if (narrowing()) return;
  if (!skip_cursor_.empty()) {
    const bool taken_already = JournalExportValue(entry, "__CURSOR") == skip_cursor_;
    skip_cursor_.clear();
    if (taken_already) return;
  }
  ++entries_read_;
  // The fields the matches read, first value of each, in one pass.
  std::fill(values_.begin(), values_.end(), std::string_view());
  for (const auto& field : entry) {
    for (size_t k = 0; k < fields_.size(); ++k) {
      if (values_[k].data() == nullptr && field.name == fields_[k]) values_[k] = field.value;
    }
  }
  auto value_of = [&](std::string_view field) {
    for (size_t k = 0; k < fields_.size(); ++k) {
      if (fields_[k] == field) return values_[k];
    }
    return std::string_view();
  };
  line_.clear();
  bool kept_by_open_slice = false;
  for (size_t i = 0; i < slices_.size(); ++i) {
    if (!JournalEntryMatches(slices_[i].match, value_of)) continue;
    if (line_.empty()) {
      AppendJournalJson(entry, line_);
      ++entries_routed_;
    }
    kept_by_open_slice = kept_by_open_slice || !slices_[i].sink->Full();
    pending_[i] += line_;
    if (pending_[i].size() >= kFlushBytes) Flush(i);
  }
  Watch(entry, kept_by_open_slice);
}

}  // namespace gpuf
