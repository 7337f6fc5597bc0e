// What the kernel and systemd say about a container's device access.
//
// cgroup v1 `devices.list`, one exception per line:
//   c 195:255 rw
// `/proc/1/mountinfo`, which tells v1, v2 and hybrid hierarchies apart:
//   30 29 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate
// `systemctl show`, KEY=VALUE lines, a blank line between units:
//   DeviceAllow=/dev/char/195:0 rw
// `bpftool cgroup list PATH` (and `bpftool cgroup tree`), programs attached
// to a cgroup; runc's device program has an empty Name column:
//   81000    cgroup_device   multi
// Every parser keeps what it could read and returns a warning for each line
// it could not; none of them fails.
#ifndef GPUF_FORMATS_CGROUP_FACTS_H_
#define GPUF_FORMATS_CGROUP_FACTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct DeviceRule {
  int line = 0;
  char type = 'a';              // 'a' (all), 'c' (char) or 'b' (block)
  std::optional<int64_t> major;  // nullopt: '*', any major
  std::optional<int64_t> minor;  // nullopt: '*', any minor
  std::string access;           // subset of "rwm"
};

struct DevicesList {
  std::vector<DeviceRule> rules;
  std::vector<ParseWarning> warnings;
};

DevicesList ParseDevicesList(std::string_view text);

// True when a single rule grants both read and write on char device
// major:minor, which open(O_RDWR) of /dev/nvidiaN needs. The kernel checks
// each rule on its own: "c 195:* r" plus "c 195:0 w" does not allow rw.
bool DevicesListAllowsReadWrite(const std::vector<DeviceRule>& rules, int64_t major, int64_t minor);

struct CgroupLayout {
  std::string mode;           // "v2", "v1", "hybrid"; "" when no cgroup mount was seen
  bool v1_devices = false;    // a v1 hierarchy with the devices controller is mounted
  std::string devices_mount;  // its mount point, e.g. "/sys/fs/cgroup/devices"
  std::vector<ParseWarning> warnings;
};

// Hybrid: v1 controllers plus cgroup2 at /sys/fs/cgroup/unified. A cgroup2
// mount elsewhere beside v1 (Cilium's /run/cilium/cgroupv2) leaves it "v1".
CgroupLayout ParseCgroupMountinfo(std::string_view mountinfo);

struct SystemdUnitProperties {
  int line = 0;  // line of the unit's first property
  // Repeated keys (DeviceAllow, one line per entry) keep every value in order.
  std::map<std::string, std::vector<std::string>> values;
  std::map<std::string, int> lines;  // the line of each key's last value

  // The last value of `key`, or "" when absent.
  std::string Get(const std::string& key) const;
};

struct SystemdShow {
  std::vector<SystemdUnitProperties> units;
  std::vector<ParseWarning> warnings;
};

SystemdShow ParseSystemctlShow(std::string_view text);

struct BpfCgroupProgram {
  int line = 0;
  std::string cgroup_path;   // from `bpftool cgroup tree`; "" for `cgroup list`
  int64_t id = 0;
  std::string attach_type;   // "cgroup_device" ("device" in old bpftool)
  std::string attach_flags;  // "multi", "override" or ""
  std::string name;          // "sd_devices" (systemd), "" (runc)
};

struct BpfCgroupPrograms {
  std::vector<BpfCgroupProgram> programs;
  std::vector<ParseWarning> warnings;  // includes bpftool's own "Error: ..." line
};

BpfCgroupPrograms ParseBpftoolCgroup(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_CGROUP_FACTS_H_
