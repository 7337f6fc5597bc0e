// Whole-file reads and writes for files the program itself made or was
// given to read. Only regular files are read: a FIFO or device is refused
// at once (opened O_NONBLOCK, then fstat), never waited on.
#ifndef GPUF_COMMON_FILE_IO_H_
#define GPUF_COMMON_FILE_IO_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gpuf {

// Calls fn(chunk) for successive chunks of the file; fails with IoError, or
// BadInput when the path is not a regular file.
Status ForEachChunk(const std::string& path, const std::function<void(std::string_view)>& fn);

// One allocation of the file's size; fails as ForEachChunk, and with
// BadInput when the file is larger than `max_bytes`:
// "'PATH' is larger than the 1 MiB limit".
Result<std::string> ReadWholeFile(const std::string& path, int64_t max_bytes = INT64_MAX);

// Opens a regular file for reading without blocking on a FIFO or device;
// BadInput "'PATH' is a FIFO, not a regular file" for anything else.
Result<int> OpenRegularFile(const std::string& path);

// The paths of the entries of `dir` whose names end in `extension`
// (".yaml"), sorted, leaving out links that lead out of the folder; fails
// with NotFound, the system's reason its message, when the folder cannot be
// listed.
Result<std::vector<std::string>> ListFolder(const std::string& dir, std::string_view extension);

// "1 MiB", "64 KiB", "300 bytes".
std::string FormatByteLimit(int64_t bytes);

// Creates the file new (O_EXCL|O_NOFOLLOW, mode 0600) with `data`; fails
// with IoError, also when anything is at the path already. For files in a
// private WorkDir; what a user asked for goes through output_file.h.
Status WriteWholeFile(const std::string& path, std::string_view data);

}  // namespace gpuf

#endif  // GPUF_COMMON_FILE_IO_H_
