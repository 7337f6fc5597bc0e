// The listing and PCI table formats the collector writes (schema/bundle.md).
//
// A listing is one line per path, tab separated, with a header line:
//   # gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target
//   /dev/nvidia0	c	0666	0	0	195	0	0	1763435896123456789
// type is one of f d l c b s p ?; major/minor are empty unless c or b.
#ifndef GPUF_COLLECTOR_LISTING_H_
#define GPUF_COLLECTOR_LISTING_H_

#include <string>

#include "collector/host_root.h"

namespace gpuf {

inline constexpr char kListingHeader[] =
    "# gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target\n";
inline constexpr char kPciTableHeader[] = "# gpuforensics pci v1: address vendor device class\n";

std::string ListingLine(const DirEntryInfo& entry);

// Backslash-escapes tab, newline, carriage return and backslash.
std::string EscapeField(const std::string& text);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_LISTING_H_
