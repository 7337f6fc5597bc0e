// The kernel ring as `dmesg` prints it by default, each record stamped with
// seconds since boot:
//   [    5.118236] nvidia: loading out-of-tree module taints kernel.
//   [ 1843.308145] NVRM: Xid (PCI:0000:b3:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
// A record of several lines prints the lines after the first unstamped; they
// belong to the record before them.
#ifndef GPUF_FORMATS_KERNEL_RING_H_
#define GPUF_FORMATS_KERNEL_RING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct KernelRecord {
  int line = 0;              // 1-based, of the record's first line
  int64_t since_boot_us = 0;
  std::string message;       // lines after the first joined with '\n'
};

struct KernelRing {
  std::vector<KernelRecord> records;
  int unread_lines = 0;  // lines before the first stamp, in no record
};

KernelRing ParseKernelRing(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KERNEL_RING_H_
