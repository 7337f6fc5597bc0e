// Finding the device-plugin containers and where their evidence lives.
//
// Input is what the runtime printed in phase 1 and 2 (`crictl ps -a -o json`,
// `crictl inspect -o json ID`, `ctr containers info ID`); output is the list
// of containers to look at and the host paths of their cgroups and logs.
// Parsers here never fail: what they cannot read is simply not found.
#ifndef GPUF_COLLECTOR_DISCOVERY_H_
#define GPUF_COLLECTOR_DISCOVERY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpuf {

struct PluginContainer {
  std::string id;             // full 64-hex id
  std::string name;           // container name
  std::string pod_name;
  std::string pod_namespace;
  std::string state;          // "CONTAINER_RUNNING", ... (crictl) or "" (ctr)
  int64_t created_at_ns = 0;
};

// Containers that run the device plugin (common/plugin_roles.h: by image,
// else by their or their pod's name matching `pattern`; sidecars, init
// containers and validators are left out), newest first, at most `limit`.
std::vector<PluginContainer> PluginContainersFromCrictlPs(std::string_view json,
                                                          const re2::RE2& pattern, size_t limit);

// Container ids from `ctr containers ls -q` (one per line).
std::vector<std::string> IdsFromCtrList(std::string_view text, size_t limit);

// From `ctr containers info ID`: the container when it runs the device
// plugin (its command, image or Kubernetes labels say so).
bool PluginContainerFromCtrInfo(std::string_view json, const re2::RE2& pattern, PluginContainer& out);

struct ContainerFacts {
  int64_t pid = 0;            // host pid of the init process, 0 when not running
  std::string cgroups_path;   // OCI linux.cgroupsPath
  std::string log_path;       // CRI log file
  bool running = false;
};

// From `crictl inspect -o json ID` or `ctr containers info ID`.
ContainerFacts ContainerFactsFromInspect(std::string_view json);

// The container's cgroup directory relative to the hierarchy root
// ("kubepods.slice/.../cri-containerd-ID.scope"), from /proc/PID/cgroup when
// available (v2 "0::" line, else the v1 "devices" line), else derived from the
// OCI cgroupsPath (systemd "slice:prefix:name" or cgroupfs "/a/b/c").
std::string ContainerCgroupDir(std::string_view proc_cgroup, std::string_view cgroups_path);

// "cri-containerd-ID.scope" when the cgroup dir ends in a systemd scope.
std::string SystemdScopeOf(std::string_view cgroup_dir);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_DISCOVERY_H_
