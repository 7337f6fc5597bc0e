#include "common/host_files.h"

#include <set>

#include "common/text_lines.h"

namespace gpuf {

namespace {

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

std::string Unquote(std::string_view value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
    value = value.substr(1, value.size() - 2);
  }
  return std::string(value);
}

}  // namespace

MemoryHostFiles& MemoryHostFiles::Add(const std::string& path, std::string content) {
  files_[path] = std::move(content);
  for (std::string dir = ParentOf(path); dir != "/"; dir = ParentOf(dir)) dirs_[dir] = true;
  return *this;
}

MemoryHostFiles& MemoryHostFiles::AddDir(const std::string& path) {
  for (std::string dir = path; dir != "/"; dir = ParentOf(dir)) dirs_[dir] = true;
  return *this;
}

bool MemoryHostFiles::Exists(const std::string& path) const {
  return files_.count(path) > 0 || dirs_.count(path) > 0;
}

std::optional<std::string> MemoryHostFiles::Read(const std::string& path, int64_t max_bytes) const {
  auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second.substr(0, static_cast<size_t>(max_bytes));
}

std::vector<std::string> MemoryHostFiles::List(const std::string& path) const {
  std::set<std::string> names;
  const std::string prefix = path == "/" ? "/" : path + "/";
  auto take = [&](const std::string& child) {
    if (child.compare(0, prefix.size(), prefix) != 0 || child.size() == prefix.size()) return;
    std::string rest = child.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  };
  for (const auto& [file, content] : files_) take(file);
  for (const auto& [dir, present] : dirs_) take(dir);
  return {names.begin(), names.end()};
}

std::optional<std::string> EnvFileValue(std::string_view text, std::string_view key) {
  std::optional<std::string> found;
  ForEachLine(text, [&](int, std::string_view line) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return;
    line = line.substr(start);
    if (line.substr(0, 7) == "export ") line = line.substr(7);
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != '=') return;
    std::string_view value = line.substr(key.size() + 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.remove_suffix(1);
    found = Unquote(value);  // the last assignment wins, as in a shell
  });
  return found;
}

}  // namespace gpuf
