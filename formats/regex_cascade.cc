#include "formats/regex_cascade.h"

#include <algorithm>
#include <cstdlib>

namespace gpuf {

namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

}  // namespace

RegexCascade::RegexCascade(const std::vector<std::string>& patterns, const RE2::Options& options)
    : set_(options, RE2::ANCHOR_BOTH) {
  for (const std::string& p : patterns) {
    patterns_.push_back(std::make_unique<RE2>(p, options));
    if (!patterns_.back()->ok() || set_.Add(p, nullptr) < 0) std::abort();
  }
  if (!set_.Compile()) std::abort();
}

int RegexCascade::FirstFullMatch(std::string_view text) const {
  std::vector<int> hits;
  RE2::Set::ErrorInfo info{RE2::Set::kNoError};
  if (set_.Match(Piece(text), &hits, &info)) return *std::min_element(hits.begin(), hits.end());
  // The set's DFA can give up on a pathological line (out of memory): the
  // answer is then asked of each pattern in turn.
  if (info.kind == RE2::Set::kNoError || info.kind == RE2::Set::kNotCompiled) return -1;
  return FirstOneByOne(text);
}

int RegexCascade::FirstOneByOne(std::string_view text) const {
  for (int i = 0; i < size(); ++i) {
    if (RE2::FullMatch(Piece(text), pattern(i))) return i;
  }
  return -1;
}

}  // namespace gpuf
