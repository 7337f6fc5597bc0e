// What every fuzz target shares: the input as text, split into lines, and a
// selector byte for targets that drive several parsers of one artifact family.
#ifndef GPUF_FUZZ_FUZZ_INPUT_H_
#define GPUF_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpuf {

inline std::string_view FuzzText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Calls `f` on every line of `text`, without its '\n' (log parsers read one
// line at a time, as their loaders feed them).
template <typename F>
void ForEachLine(std::string_view text, F f) {
  while (!text.empty()) {
    size_t end = text.find('\n');
    f(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

}  // namespace gpuf

// libFuzzer's entry point; fuzz/replay_main.cc calls it for the kept inputs.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#endif  // GPUF_FUZZ_FUZZ_INPUT_H_
