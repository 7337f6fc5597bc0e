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

void JournalSplitter::Route(const JournalExportEntry& entry) {
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
  for (size_t i = 0; i < slices_.size(); ++i) {
    if (!JournalEntryMatches(slices_[i].match, value_of)) continue;
    if (line_.empty()) {
      AppendJournalJson(entry, line_);
      ++entries_routed_;
    }
    pending_[i] += line_;
    if (pending_[i].size() >= kFlushBytes) Flush(i);
  }
}

}  // namespace gpuf
