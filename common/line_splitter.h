// The lines of a text that arrives in chunks (a member streamed out of a
// bundle), split exactly as ForEachLine splits the same text held whole:
// numbered from 1, without "\n" or "\r\n", a last line without a newline
// included. Only a line that spans two chunks is copied.
#ifndef GPUF_COMMON_LINE_SPLITTER_H_
#define GPUF_COMMON_LINE_SPLITTER_H_

#include <string>
#include <string_view>

namespace gpuf {

class LineSplitter {
 public:
  // Calls fn(number, line) for each line the chunk completes.
  template <typename Fn>
  void Chunk(std::string_view bytes, Fn fn) {
    while (!bytes.empty()) {
      size_t end = bytes.find('\n');
      if (end == std::string_view::npos) {
        pending_.append(bytes);
        return;
      }
      if (pending_.empty()) {
        Emit(bytes.substr(0, end), fn);
      } else {
        pending_.append(bytes.substr(0, end));
        Emit(pending_, fn);
        pending_.clear();
      }
      bytes.remove_prefix(end + 1);
    }
  }

  // After the last chunk: the line it left without a newline, if any.
  template <typename Fn>
  void End(Fn fn) {
    if (!pending_.empty()) Emit(pending_, fn);
    pending_.clear();
  }

 private:
  template <typename Fn>
  void Emit(std::string_view line, Fn& fn) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(++number_, line);
  }

  std::string pending_;
  int number_ = 0;
};

}  // namespace gpuf

#endif  // GPUF_COMMON_LINE_SPLITTER_H_
