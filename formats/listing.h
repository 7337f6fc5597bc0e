// Parses the collector's listing format (schema/bundle.md, "Listings").
//   /dev/nvidia0	c	0666	0	0	195	0	0	1763435896123456789
// Malformed rows are skipped and counted, never fatal.
#ifndef GPUF_FORMATS_LISTING_H_
#define GPUF_FORMATS_LISTING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct ListingRow {
  int line = 0;
  std::string path;
  std::string type;
  int64_t mode = 0;
  int64_t uid = 0;
  int64_t gid = 0;
  std::optional<int64_t> major;
  std::optional<int64_t> minor;
  int64_t size_bytes = 0;
  int64_t mtime_ns = 0;
  std::string link_target;
};

struct ParsedListing {
  std::vector<ListingRow> rows;
  std::vector<int> bad_lines;
};

ParsedListing ParseListing(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_LISTING_H_
