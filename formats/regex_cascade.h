// An ordered list of patterns, each matched against a whole message, where the
// first one that matches decides what the message is (a systemd job line, a
// device-plugin event, a kubelet error). Most lines of a real log match none
// of them, so the list is also compiled into one RE2::Set: one pass over the
// text says which patterns match, and only the winner runs again to fill its
// capture groups.
//
//   RegexCascade c({"Started (.+)\\.", "Stopped (.+)\\."}, options);
//   int i = c.FirstFullMatch("Started kubelet.service.");   // 0
//   RE2::FullMatch(text, c.pattern(i), &unit);
#ifndef GPUF_FORMATS_REGEX_CASCADE_H_
#define GPUF_FORMATS_REGEX_CASCADE_H_

#include <re2/re2.h>
#include <re2/set.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

class RegexCascade {
 public:
  // The patterns are program text: one that does not compile is a bug and aborts.
  RegexCascade(const std::vector<std::string>& patterns, const RE2::Options& options);

  // The index of the first pattern that matches all of `text`, or -1.
  int FirstFullMatch(std::string_view text) const;

  const RE2& pattern(int index) const { return *patterns_[static_cast<size_t>(index)]; }
  int size() const { return static_cast<int>(patterns_.size()); }

 private:
  int FirstOneByOne(std::string_view text) const;

  std::vector<std::unique_ptr<RE2>> patterns_;
  RE2::Set set_;
};

}  // namespace gpuf

#endif  // GPUF_FORMATS_REGEX_CASCADE_H_
