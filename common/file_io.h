// Whole-file reads and writes for files the program itself made.
#ifndef GPUF_COMMON_FILE_IO_H_
#define GPUF_COMMON_FILE_IO_H_

#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

// Calls fn(chunk) for successive chunks of the file; fails with IoError.
Status ForEachChunk(const std::string& path, const std::function<void(std::string_view)>& fn);

// One allocation of the file's size; fails with IoError.
Result<std::string> ReadWholeFile(const std::string& path);

// Replaces the file's content; fails with IoError.
Status WriteWholeFile(const std::string& path, std::string_view data);

}  // namespace gpuf

#endif  // GPUF_COMMON_FILE_IO_H_
