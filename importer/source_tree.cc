#include "importer/source_tree.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

namespace gpuf {

namespace {

constexpr int kMaxLinkHops = 16;

std::string MiB(int64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ReadArchive = std::unique_ptr<archive, ArchiveFree>;

std::string ArchiveMessage(archive* a) {
  const char* message = archive_error_string(a);
  return message ? message : "unreadable";
}

std::string Parent(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// Reads the current entry's data into `out`, failing past the file limit
// or once the whole stream has decompressed past the total limit.
Status ReadEntryData(archive* a, const std::string& name, const SourceLimits& limits, std::string& out) {
  char buffer[64 * 1024];
  while (true) {
    la_ssize_t n = archive_read_data(a, buffer, sizeof buffer);
    if (n == 0) return Status::Ok();
    if (n < 0) return Status::BadInput("reading '" + name + "'", ArchiveMessage(a));
    if (static_cast<int64_t>(out.size()) + n > limits.max_file_bytes) {
      return Status::BadInput("'" + name + "' is larger than the " + MiB(limits.max_file_bytes) + " limit");
    }
    out.append(buffer, static_cast<size_t>(n));
    if (archive_filter_bytes(a, 0) > limits.max_total_bytes) {
      return Status::BadInput("the input decompresses past the " + MiB(limits.max_total_bytes) + " limit");
    }
  }
}

Status SkipEntryData(archive* a, const std::string& name, const SourceLimits& limits) {
  // Skipping still decompresses: count it against the total.
  char buffer[64 * 1024];
  while (true) {
    la_ssize_t n = archive_read_data(a, buffer, sizeof buffer);
    if (n == 0) return Status::Ok();
    if (n < 0) return Status::BadInput("reading '" + name + "'", ArchiveMessage(a));
    if (archive_filter_bytes(a, 0) > limits.max_total_bytes) {
      return Status::BadInput("the input decompresses past the " + MiB(limits.max_total_bytes) + " limit");
    }
  }
}

Status ReadRegularFile(const std::string& full, const std::string& name, const SourceLimits& limits,
                       std::string& out) {
  int fd = open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Status::BadInput("cannot read '" + name + "'", std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status::BadInput("'" + name + "' is not a regular file");
  }
  if (st.st_size > limits.max_file_bytes) {
    close(fd);
    return Status::BadInput("'" + name + "' is larger than the " + MiB(limits.max_file_bytes) + " limit");
  }
  char buffer[64 * 1024];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      int error = errno;
      close(fd);
      return Status::BadInput("cannot read '" + name + "'", std::strerror(error));
    }
    if (static_cast<int64_t>(out.size()) + n > limits.max_file_bytes) {  // grew while read
      close(fd);
      return Status::BadInput("'" + name + "' is larger than the " + MiB(limits.max_file_bytes) + " limit");
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return Status::Ok();
}

// Archives and unpacked reports keep everything under one top directory
// ("sosreport-node-2026.../"): a path is wanted with or without it.
bool Wanted(const WantPath& want, const std::string& path) {
  if (want(path)) return true;
  size_t slash = path.find('/');
  return slash != std::string::npos && want(std::string_view(path).substr(slash + 1));
}

// A wanted path may be a link; one that leads out of the input is refused
// now, before any adapter reads through it.
Status CheckWantedLinks(const SourceTree& tree, const WantPath& want) {
  for (const auto& path : tree.Paths()) {
    if (tree.LinkTarget(path).empty() || !Wanted(want, path)) continue;
    auto found = tree.Find(path);
    if (!found.ok() && found.status().code() != Status::Code::kNotFound) return found.status();
  }
  return Status::Ok();
}

}  // namespace

std::string NormalizeInsideTree(std::string_view path) {
  if (path.empty() || path.front() == '/') return "";
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (part == "..") {
      if (parts.empty()) return "";
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.emplace_back(part);
    }
    start = slash + 1;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

Result<const std::string*> SourceTree::Find(const std::string& path) const {
  std::string current = path;
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    auto it = entries_.find(current);
    if (it == entries_.end()) return Status::NotFound("'" + path + "' is not in the input");
    if (!it->second.is_link) return &it->second.bytes;
    const std::string& target = it->second.link_target;
    std::string next = target.empty() || target.front() == '/'
                           ? ""
                           : NormalizeInsideTree(Parent(current) + (Parent(current).empty() ? "" : "/") + target);
    if (next.empty()) return Status::BadInput("'" + path + "' is a symbolic link out of the input");
    current = next;
  }
  return Status::BadInput("'" + path + "' is a loop of symbolic links");
}

std::string SourceTree::LinkTarget(const std::string& path) const {
  auto it = entries_.find(path);
  return it != entries_.end() && it->second.is_link ? it->second.link_target : "";
}

std::vector<std::string> SourceTree::Paths() const {
  std::vector<std::string> paths;
  for (const auto& [path, entry] : entries_) paths.push_back(path);
  return paths;
}

int64_t SourceTree::mtime_ns(const std::string& path) const {
  auto it = entries_.find(path);
  return it == entries_.end() ? 0 : it->second.mtime_ns;
}

void SourceTree::AddFile(std::string path, std::string bytes, int64_t mtime_ns) {
  entries_[std::move(path)] = Entry{std::move(bytes), "", false, mtime_ns};
}

void SourceTree::AddLink(std::string path, std::string target) {
  entries_[std::move(path)] = Entry{"", std::move(target), true, 0};
}

void SourceTree::StripCommonTopDirectory() {
  std::string top;
  auto shares_top = [&top](const std::string& path) {
    size_t slash = path.find('/');
    if (slash == std::string::npos) return false;  // a file at the top: nothing to strip
    if (top.empty()) top = path.substr(0, slash);
    return path.compare(0, slash, top) == 0 && slash == top.size();
  };
  if (seen_files_.empty() && entries_.empty()) return;
  for (const auto& [path, entry] : entries_) if (!shares_top(path)) return;
  for (const auto& path : seen_files_) if (!shares_top(path)) return;
  std::map<std::string, Entry> stripped;
  for (auto& [path, entry] : entries_) stripped[path.substr(top.size() + 1)] = std::move(entry);
  entries_ = std::move(stripped);
  for (auto& path : seen_files_) path = path.substr(top.size() + 1);
}

Result<SourceTree> ReadDirectoryTree(const std::string& dir, const SourceLimits& limits, const WantPath& want) {
  namespace fs = std::filesystem;
  SourceTree tree;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  if (ec) return Status::BadInput("cannot read directory '" + dir + "'", ec.message());
  int64_t entries = 0;
  int64_t total = 0;
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::BadInput("cannot read directory '" + dir + "'", ec.message());
    if (++entries > limits.max_entries) {
      return Status::BadInput("'" + dir + "' holds more than " + std::to_string(limits.max_entries) + " entries");
    }
    const std::string full = it->path().string();
    const std::string name = it->path().lexically_relative(dir).generic_string();
    struct stat st {};
    if (lstat(full.c_str(), &st) != 0) return Status::BadInput("cannot read '" + name + "'", std::strerror(errno));
    if (S_ISDIR(st.st_mode)) continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code link_ec;
      fs::path target = fs::read_symlink(it->path(), link_ec);
      if (link_ec) return Status::BadInput("cannot read link '" + name + "'", link_ec.message());
      tree.AddLink(name, target.string());
      continue;
    }
    if (!S_ISREG(st.st_mode)) return Status::BadInput("'" + name + "' is a device, FIFO or socket, not a file");
    tree.AddSeen(name);
    if (!Wanted(want, name)) continue;
    std::string bytes;
    GPUF_RETURN_IF_ERROR(ReadRegularFile(full, name, limits, bytes));
    total += static_cast<int64_t>(bytes.size());
    if (total > limits.max_kept_bytes) {
      return Status::BadInput("'" + dir + "' holds more than the " + MiB(limits.max_kept_bytes) + " limit to read");
    }
    tree.AddFile(name, std::move(bytes), st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
  }
  GPUF_RETURN_IF_ERROR(CheckWantedLinks(tree, want));
  return tree;
}

Result<SourceTree> ReadArchiveTree(const std::string& path, const SourceLimits& limits, const WantPath& want) {
  ReadArchive a(archive_read_new());
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_gnutar(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 64 * 1024) != ARCHIVE_OK) {
    return Status::BadInput("cannot read archive '" + path + "'", ArchiveMessage(a.get()));
  }
  SourceTree tree;
  int64_t entries = 0;
  int64_t kept = 0;
  archive_entry* entry = nullptr;
  while (true) {
    int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      return Status::BadInput("cannot read archive '" + path + "'", ArchiveMessage(a.get()));
    }
    if (++entries > limits.max_entries) {
      return Status::BadInput("'" + path + "' holds more than " + std::to_string(limits.max_entries) + " entries");
    }
    const char* raw = archive_entry_pathname(entry);
    std::string name = raw ? raw : "";
    std::string inside = NormalizeInsideTree(name);
    if (inside.empty() && !name.empty() && NormalizeInsideTree(name + "/x").empty()) {
      return Status::BadInput("archive member '" + name + "' points outside the archive");
    }
    mode_t type = archive_entry_filetype(entry);
    if (type == AE_IFDIR || inside.empty()) {
      GPUF_RETURN_IF_ERROR(SkipEntryData(a.get(), name, limits));
      continue;
    }
    if (archive_entry_hardlink(entry) != nullptr) {
      std::string target = NormalizeInsideTree(archive_entry_hardlink(entry));
      if (target.empty()) return Status::BadInput("archive member '" + name + "' links outside the archive");
      // A hard link's target is relative to the archive root, a symlink's to its directory.
      std::string up;
      for (char c : inside) if (c == '/') up += "../";
      tree.AddLink(inside, up + target);
      continue;
    }
    if (type == AE_IFLNK) {
      const char* target = archive_entry_symlink(entry);
      tree.AddLink(inside, target ? target : "");
      continue;
    }
    if (type != AE_IFREG) return Status::BadInput("archive member '" + name + "' is a device, FIFO or socket");
    tree.AddSeen(inside);
    if (archive_entry_size_is_set(entry) && archive_entry_size(entry) > limits.max_file_bytes && Wanted(want, inside)) {
      return Status::BadInput("'" + inside + "' is larger than the " + MiB(limits.max_file_bytes) + " limit");
    }
    if (!Wanted(want, inside)) {
      GPUF_RETURN_IF_ERROR(SkipEntryData(a.get(), name, limits));
      continue;
    }
    std::string bytes;
    GPUF_RETURN_IF_ERROR(ReadEntryData(a.get(), inside, limits, bytes));
    kept += static_cast<int64_t>(bytes.size());
    if (kept > limits.max_kept_bytes) {
      return Status::BadInput("'" + path + "' holds more than the " + MiB(limits.max_kept_bytes) + " limit to read");
    }
    tree.AddFile(inside, std::move(bytes), archive_entry_mtime(entry) * 1000000000LL);
  }
  GPUF_RETURN_IF_ERROR(CheckWantedLinks(tree, want));
  tree.StripCommonTopDirectory();
  return tree;
}

namespace {

// A reader of one stream, compressed by any filter libarchive knows or not at all.
ReadArchive NewRawReader() {
  ReadArchive a(archive_read_new());
  archive_read_support_filter_all(a.get());
  archive_read_support_format_raw(a.get());
  archive_read_support_format_empty(a.get());
  return a;
}

// Moves an opened raw reader to its data; false when the stream is empty.
Result<bool> AtRawData(archive* a, const std::string& name) {
  archive_entry* entry = nullptr;
  int r = archive_read_next_header(a, &entry);
  if (r == ARCHIVE_EOF) return false;
  if (r != ARCHIVE_OK) return Status::BadInput("cannot read '" + name + "'", ArchiveMessage(a));
  return true;
}

}  // namespace

Result<std::string> ReadMaybeCompressedFile(const std::string& path, const SourceLimits& limits) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return Status::BadInput("cannot read '" + path + "'", std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return Status::BadInput("'" + path + "' is not a regular file");
  ReadArchive a = NewRawReader();
  if (archive_read_open_filename(a.get(), path.c_str(), 64 * 1024) != ARCHIVE_OK) {
    return Status::BadInput("cannot read '" + path + "'", ArchiveMessage(a.get()));
  }
  GPUF_ASSIGN_OR_RETURN(bool has_data, AtRawData(a.get(), path));
  if (!has_data) return std::string();
  std::string out;
  GPUF_RETURN_IF_ERROR(ReadEntryData(a.get(), path, limits, out));
  return out;
}

Result<std::string> ReadCompressedHead(const std::string& path, int64_t max_bytes) {
  ReadArchive a = NewRawReader();
  if (archive_read_open_filename(a.get(), path.c_str(), 64 * 1024) != ARCHIVE_OK) {
    return Status::BadInput("cannot read '" + path + "'", ArchiveMessage(a.get()));
  }
  GPUF_ASSIGN_OR_RETURN(bool has_data, AtRawData(a.get(), path));
  if (!has_data) return std::string();
  std::string out(static_cast<size_t>(max_bytes), '\0');
  la_ssize_t n = archive_read_data(a.get(), out.data(), out.size());
  if (n < 0) return Status::BadInput("cannot read '" + path + "'", ArchiveMessage(a.get()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> DecompressBytes(std::string_view bytes, const std::string& name, const SourceLimits& limits) {
  ReadArchive a = NewRawReader();
  if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    return Status::BadInput("cannot read '" + name + "'", ArchiveMessage(a.get()));
  }
  GPUF_ASSIGN_OR_RETURN(bool has_data, AtRawData(a.get(), name));
  if (!has_data) return std::string();
  std::string out;
  GPUF_RETURN_IF_ERROR(ReadEntryData(a.get(), name, limits, out));
  return out;
}

}  // namespace gpuf
