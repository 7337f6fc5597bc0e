// Where the kubelet's flags are written, read as command lines: the running
// kubelet's /proc/PID/cmdline (and k3s' and rke2's, which run it), what its
// systemd unit would start (the unit and its drop-ins in systemd's order,
// Environment= and EnvironmentFile= expanded), and the flag files kubeadm,
// EKS and the platforms write (KEY="--flag=value ..."); k3s and RKE2's
// config.yaml gives node-name as "--node-name NAME". Reads files only,
// through HostFiles; what cannot be read is simply absent.
#ifndef GPUF_COLLECTOR_KUBELET_FLAGS_H_
#define GPUF_COLLECTOR_KUBELET_FLAGS_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/host_files.h"
#include "common/platforms.h"

namespace gpuf {

// A kubelet command line and where it was read.
struct ArgvSource {
  enum Kind { kRunning, kUnit, kFlagFile } kind;
  std::string from;               // "/proc/4242/cmdline", the unit file holding ExecStart=, the flag file
  std::vector<std::string> argv;
};

// Most authoritative first: what runs, then what the units would start,
// then the bare flag files. `platform` adds its units, unit directories and
// flag files; nullptr for none.
std::vector<ArgvSource> KubeletArgvSources(const HostFiles& host, const PlatformRow* platform);

// The value of --NAME=VALUE or --NAME VALUE in a kubelet argv, the last one
// winning as in the kubelet; "" when absent.
std::string FlagValue(const std::vector<std::string>& argv, std::string_view name);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_KUBELET_FLAGS_H_
