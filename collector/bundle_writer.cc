#include "collector/bundle_writer.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "common/bundle_layout.h"

namespace gpuf {

namespace {

struct ArchiveCloser {
  void operator()(archive* a) const { archive_write_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveCloser>;

Status ArchiveError(archive* a, const std::string& what) {
  std::string message = archive_error_string(a) ? archive_error_string(a) : "unknown libarchive error";
  // libarchive says only "Write error" when the disk is full: name the cause.
  int error = archive_errno(a);
  if (error > 0 && message.find(std::strerror(error)) == std::string::npos)
    message += std::string(" (") + std::strerror(error) + ")";
  return Status::IoError(what, message);
}

Status AddEntryHeader(archive* a, const std::string& name, int64_t size, int64_t mtime) {
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, name.c_str());
  archive_entry_set_size(entry, size);
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_perm(entry, 0644);
  archive_entry_set_uid(entry, 0);
  archive_entry_set_gid(entry, 0);
  archive_entry_set_uname(entry, "root");
  archive_entry_set_gname(entry, "root");
  archive_entry_set_mtime(entry, mtime, 0);
  int rc = archive_write_header(a, entry);
  archive_entry_free(entry);
  if (rc != ARCHIVE_OK) return ArchiveError(a, "writing header for '" + name + "'");
  return Status::Ok();
}

Status AddBytes(archive* a, const std::string& name, const std::string& bytes, int64_t mtime) {
  GPUF_RETURN_IF_ERROR(AddEntryHeader(a, name, static_cast<int64_t>(bytes.size()), mtime));
  if (archive_write_data(a, bytes.data(), bytes.size()) != static_cast<la_ssize_t>(bytes.size())) {
    return ArchiveError(a, "writing '" + name + "'");
  }
  return Status::Ok();
}

Status AddFile(archive* a, const BundleMember& m, int64_t mtime) {
  int fd = open(m.source_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("opening staged '" + m.source_path + "'", std::strerror(errno));
  off_t size = lseek(fd, 0, SEEK_END);
  lseek(fd, 0, SEEK_SET);
  Status status = AddEntryHeader(a, m.member, size, mtime);
  char buf[1 << 16];
  int64_t remaining = size;
  while (status.ok() && remaining > 0) {
    ssize_t n = read(fd, buf, static_cast<size_t>(std::min<int64_t>(remaining, sizeof buf)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      status = Status::IoError("reading staged '" + m.source_path + "'", "short read");
      break;
    }
    if (archive_write_data(a, buf, static_cast<size_t>(n)) != n) {
      status = ArchiveError(a, "writing '" + m.member + "'");
    }
    remaining -= n;
  }
  close(fd);
  return status;
}

Status WriteArchive(int fd, const std::string& path, const std::string& manifest_json,
                    const std::vector<BundleMember>& members, int64_t mtime) {
  ArchivePtr a(archive_write_new());
  if (archive_write_add_filter_zstd(a.get()) != ARCHIVE_OK ||
      archive_write_set_filter_option(a.get(), "zstd", "compression-level", "6") != ARCHIVE_OK ||
      archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(a.get(), 1) != ARCHIVE_OK) {
    return ArchiveError(a.get(), "configuring the archive writer");
  }
  if (archive_write_open_fd(a.get(), fd) != ARCHIVE_OK) {
    return ArchiveError(a.get(), "creating '" + path + "'");
  }
  GPUF_RETURN_IF_ERROR(AddBytes(a.get(), std::string(kManifestMember), manifest_json, mtime));
  for (const auto& m : members) GPUF_RETURN_IF_ERROR(AddFile(a.get(), m, mtime));
  if (archive_write_close(a.get()) != ARCHIVE_OK) return ArchiveError(a.get(), "finishing '" + path + "'");
  return Status::Ok();
}

}  // namespace

Status WriteBundle(const std::string& output_path, const std::string& manifest_json,
                   std::vector<BundleMember> members, int64_t mtime_unix_s, Replace replace) {
  std::sort(members.begin(), members.end(),
            [](const auto& x, const auto& y) { return x.member < y.member; });
  GPUF_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(output_path, replace));
  GPUF_RETURN_IF_ERROR(WriteArchive(out.fd(), output_path, manifest_json, members, mtime_unix_s));
  return out.Publish(0600);
}

}  // namespace gpuf
