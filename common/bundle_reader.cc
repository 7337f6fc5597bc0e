#include "common/bundle_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/sha256.h"
#include "common/sha256_behind.h"

namespace gpuf {

namespace {

// The most a member's header can make the reader reserve ahead of its data.
constexpr int64_t kMaxReservedBytes = 64LL << 20;

// A streamed member this large is hashed on a thread beside the one that
// reads it; below, starting the thread costs more than it saves.
constexpr int64_t kHashBehindBytes = 1LL << 20;

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};

bool IsSafeMemberPath(const std::string& path) {
  if (path.empty() || path[0] == '/') return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string part = path.substr(start, end - start);
    if (part == "..") return false;
    start = end + 1;
  }
  return true;
}

Status DamagedRead(archive* a) {
  const char* message = archive_error_string(a);
  return Status::BadInput("damaged bundle", message ? message : "read error");
}

// Hands `take` zeros from `at` up to `offset`: a hole of a sparse entry,
// which archive_read_data would fill the same way. False when `take` is done.
bool TakeHole(int64_t& at, int64_t offset, const std::function<bool(std::string_view)>& take) {
  static const char kZeros[1 << 16] = {};
  while (at < offset) {
    size_t zeros = static_cast<size_t>(std::min<int64_t>(offset - at, sizeof kZeros));
    if (!take(std::string_view(kZeros, zeros))) return false;
    at += static_cast<int64_t>(zeros);
  }
  return true;
}

// Hands the current entry's data to `take`, a block at a time as libarchive
// decompressed it (no copy), until the entry ends or `take` returns false.
Status ForEachDataChunk(archive* a, const std::function<bool(std::string_view)>& take) {
  int64_t at = 0;
  while (true) {
    const void* block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    int rc = archive_read_data_block(a, &block, &size, &offset);
    if (rc == ARCHIVE_EOF) {
      TakeHole(at, offset, take);  // the offset is the entry's size: a hole may end it
      return Status::Ok();
    }
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) return DamagedRead(a);
    if (offset < at) return DamagedRead(a);
    if (!TakeHole(at, offset, take)) return Status::Ok();
    if (size == 0) continue;
    if (!take(std::string_view(static_cast<const char*>(block), size))) return Status::Ok();
    at += static_cast<int64_t>(size);
  }
}

// Reads the current entry's data, up to `cap` bytes. Sets `too_big` when the
// entry holds more; the rest is skipped by libarchive on the next header.
Status ReadEntryData(archive* a, int64_t cap, std::string& out, bool& too_big) {
  out.clear();
  too_big = false;
  return ForEachDataChunk(a, [&](std::string_view chunk) {
    too_big = static_cast<int64_t>(out.size() + chunk.size()) > cap;
    if (!too_big) out.append(chunk);
    return !too_big;
  });
}

// Feeds the current entry's data to `stream`, hashing it on the way.
Status StreamEntryData(archive* a, MemberStream& stream, Sha256Behind& hash, int64_t& size) {
  return ForEachDataChunk(a, [&](std::string_view chunk) {
    hash.Update(chunk);
    stream.Chunk(chunk);
    size += static_cast<int64_t>(chunk.size());
    return true;
  });
}

// Integrity of a member read whole or streamed; false with an issue recorded
// when its size or hash disagrees with the manifest.
bool CheckMember(const std::string& name, int64_t size, const ManifestOutput& output,
                 const std::function<std::string()>& sha256, std::vector<IntegrityIssue>& issues) {
  if (size != output.size_bytes) {
    issues.push_back({name, "size " + std::to_string(size) + " differs from manifest " +
                                std::to_string(output.size_bytes)});
    return false;
  }
  if (sha256() != output.sha256) {
    issues.push_back({name, "sha256 differs from manifest"});
    return false;
  }
  return true;
}

}  // namespace

Status ReadBundle(const std::string& path, const BundleLimits& limits, BundleVisitor& visitor,
                  std::vector<IntegrityIssue>& issues) {
  auto fd = OpenRegularFile(path);
  if (!fd.ok()) {
    if (fd.status().code() == Status::Code::kBadInput) {
      return Status::BadInput("not a gpuforensics bundle", fd.status().message());
    }
    return Status::BadInput("not a gpuforensics bundle (tar.zst)", "Failed to open '" + path + "'");
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{*fd};
  struct stat st {};
  if (fstat(*fd, &st) == 0 && st.st_size == 0) return Status::BadInput("not a gpuforensics bundle: the file is empty");
  std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
  archive_read_support_filter_zstd(a.get());
  archive_read_support_format_tar(a.get());
  if (archive_read_open_fd(a.get(), *fd, 1 << 16) != ARCHIVE_OK) {
    const char* message = archive_error_string(a.get());
    return Status::BadInput("not a gpuforensics bundle (tar.zst)", message ? message : "cannot open");
  }

  Manifest manifest;
  std::map<std::string, std::pair<const ManifestArtifact*, const ManifestOutput*>> expected;
  std::set<std::string> seen;
  int64_t members = 0, total = 0;
  bool have_manifest = false;
  std::string data;

  while (true) {
    archive_entry* entry = nullptr;
    int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      const char* message = archive_error_string(a.get());
      std::string detail = message ? message : "unreadable entry";
      if (!have_manifest) return Status::BadInput("not a gpuforensics bundle (tar.zst)", detail);
      return Status::BadInput("damaged bundle after " + std::to_string(members) + " members", detail);
    }
    if (++members > limits.max_members) {
      return Status::BadInput("bundle holds more than " + std::to_string(limits.max_members) + " members");
    }
    const char* raw_name = archive_entry_pathname(entry);
    std::string name = raw_name ? raw_name : "";

    if (!have_manifest) {
      if (name != kManifestMember) {
        return Status::BadInput("not a gpuforensics bundle: first member is '" + name + "', not '" +
                                std::string(kManifestMember) + "'");
      }
      bool too_big = false;
      GPUF_RETURN_IF_ERROR(ReadEntryData(a.get(), limits.max_manifest_bytes, data, too_big));
      if (too_big) return Status::BadInput("manifest.json is larger than the limit");
      GPUF_ASSIGN_OR_RETURN(manifest, ParseManifest(data));
      have_manifest = true;
      for (const auto& artifact : manifest.artifacts) {
        for (const auto& output : artifact.outputs) {
          if (!expected.emplace(output.member, std::make_pair(&artifact, &output)).second) {
            issues.push_back({output.member, "named twice in the manifest"});
          }
        }
      }
      GPUF_RETURN_IF_ERROR(visitor.OnManifest(manifest));
      continue;
    }

    // Decided from the header alone: what is skipped is never read into
    // memory, and what its header declares counts towards the total, as
    // libarchive still has to decompress through it.
    const int64_t declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    auto skip = [&](std::string problem) -> Status {
      issues.push_back({name, std::move(problem)});
      total += declared;
      if (total > limits.max_total_bytes) {
        return Status::BadInput("bundle expands to more than " + std::to_string(limits.max_total_bytes) + " bytes");
      }
      return Status::Ok();
    };
    if (archive_entry_filetype(entry) != AE_IFREG) {
      GPUF_RETURN_IF_ERROR(skip("not a regular file; ignored"));
      continue;
    }
    if (!IsSafeMemberPath(name)) {
      GPUF_RETURN_IF_ERROR(skip("unsafe path; ignored"));
      continue;
    }
    auto it = expected.find(name);
    if (it == expected.end()) {
      GPUF_RETURN_IF_ERROR(skip("not named in the manifest; ignored"));
      continue;
    }
    if (!seen.insert(name).second) {
      GPUF_RETURN_IF_ERROR(skip("duplicate member; ignored"));
      continue;
    }
    if (declared > limits.max_member_bytes) {
      GPUF_RETURN_IF_ERROR(skip("larger than the member limit; ignored"));
      continue;
    }
    const ManifestOutput& output = *it->second.second;
    // Streamed when the tar header shows its size (within the limit, as
    // checked above); one without a size is read whole up to the limit.
    MemberStream* stream = nullptr;
    if (archive_entry_size_is_set(entry)) stream = visitor.StreamMember(*it->second.first, output);
    if (stream) {
      visitor.OnProgress({archive_filter_bytes(a.get(), -1), static_cast<int64_t>(seen.size()),
                          static_cast<int64_t>(expected.size()), it->second.first, archive_entry_size(entry)});
      total += archive_entry_size(entry);
      if (total > limits.max_total_bytes) {
        return Status::BadInput("bundle expands to more than " + std::to_string(limits.max_total_bytes) + " bytes");
      }
      Sha256Behind hash(archive_entry_size(entry) >= kHashBehindBytes);
      int64_t size = 0;
      GPUF_RETURN_IF_ERROR(StreamEntryData(a.get(), *stream, hash, size));
      stream->End(CheckMember(name, size, output, [&] { return hash.HexDigest(); }, issues));
      continue;
    }
    bool too_big = false;
    // Room for what the header declares, so that a large member is not
    // copied over and over as it grows; a header cannot make it reserve
    // more than kMaxReservedBytes.
    data.reserve(static_cast<size_t>(std::min(declared, kMaxReservedBytes)));
    GPUF_RETURN_IF_ERROR(ReadEntryData(a.get(), limits.max_member_bytes, data, too_big));
    if (too_big) {
      issues.push_back({name, "larger than the member limit; ignored"});
      continue;
    }
    total += static_cast<int64_t>(data.size());
    if (total > limits.max_total_bytes) {
      return Status::BadInput("bundle expands to more than " + std::to_string(limits.max_total_bytes) + " bytes");
    }
    bool verified = CheckMember(name, static_cast<int64_t>(data.size()), output, [&] { return Sha256Hex(data); },
                                issues);
    visitor.OnProgress({archive_filter_bytes(a.get(), -1), static_cast<int64_t>(seen.size()),
                        static_cast<int64_t>(expected.size()), it->second.first, static_cast<int64_t>(data.size())});
    visitor.OnMember(*it->second.first, output, std::move(data), verified);
    data.clear();
  }
  if (!have_manifest) return Status::BadInput("not a gpuforensics bundle: empty archive, no manifest.json");
  for (const auto& [member, where] : expected) {
    if (!seen.count(member)) issues.push_back({member, "named in the manifest but missing from the archive"});
  }
  visitor.OnEnd();
  return Status::Ok();
}

}  // namespace gpuf
