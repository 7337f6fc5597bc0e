// What a host's files say, as a small read-only interface: whether a path
// exists, the bytes of a small file, the names in a directory. Code that
// only looks (platform recognition, node identity) takes this instead of
// the collector's HostRoot, so a test hands it a map of paths and contents.
//
// Paths are host paths ("/etc/os-release"). Nothing here fails loudly: a
// file that cannot be read is std::nullopt, a directory that cannot be
// listed has no names.
#ifndef GPUF_COMMON_HOST_FILES_H_
#define GPUF_COMMON_HOST_FILES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

class HostFiles {
 public:
  virtual ~HostFiles() = default;
  // True when something (file, directory, link, socket) is at `path`.
  virtual bool Exists(const std::string& path) const = 0;
  // A regular file's bytes, at most `max_bytes`; nullopt when absent,
  // unreadable, not a regular file, or a path that may hold secrets.
  virtual std::optional<std::string> Read(const std::string& path, int64_t max_bytes = 1 << 20) const = 0;
  // Names in a directory, sorted, without "." and ".."; empty when unreadable.
  virtual std::vector<std::string> List(const std::string& path) const = 0;
};

// A host made of a map from path to content, for tests. Every parent of a
// file is a directory; `AddDir` adds an empty one.
class MemoryHostFiles : public HostFiles {
 public:
  MemoryHostFiles& Add(const std::string& path, std::string content);
  MemoryHostFiles& AddDir(const std::string& path);

  bool Exists(const std::string& path) const override;
  std::optional<std::string> Read(const std::string& path, int64_t max_bytes = 1 << 20) const override;
  std::vector<std::string> List(const std::string& path) const override;

 private:
  std::map<std::string, std::string> files_;
  std::map<std::string, bool> dirs_;
};

// The value of `KEY=value` (os-release, EnvironmentFile syntax) with one
// level of quotes removed; nullopt when the key is absent.
std::optional<std::string> EnvFileValue(std::string_view text, std::string_view key);

}  // namespace gpuf

#endif  // GPUF_COMMON_HOST_FILES_H_
