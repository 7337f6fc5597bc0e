// Whether the container runtime's socket is there before crictl or ctr is
// asked to connect to it. On a host whose runtime is down or absent, ctr
// waits on a missing socket until the probe's timeout (its
// --connect-timeout defaults to none) and crictl tries each of its default
// endpoints in turn; the answer "no socket" is known at once and is the
// better evidence.
//
// The check is made only where the socket is the host's: on the node itself
// (--root /) and under --exec chroot or nsenter. With --exec path and
// another root the tools see this machine, not the root, and are simply run.
#ifndef GPUF_COLLECTOR_RUNTIME_SOCKETS_H_
#define GPUF_COLLECTOR_RUNTIME_SOCKETS_H_

#include <string>
#include <string_view>
#include <vector>

#include "collector/host_root.h"

namespace gpuf {

// crictl's endpoints when neither --runtime-endpoint nor /etc/crictl.yaml names one.
inline constexpr std::string_view kCrictlDefaultEndpoints[] = {
    "unix:///run/containerd/containerd.sock", "unix:///run/crio/crio.sock", "unix:///var/run/cri-dockerd.sock"};
inline constexpr std::string_view kContainerdDefaultAddress = "/run/containerd/containerd.sock";

// The endpoints crictl will try: `option` when set, else the
// runtime-endpoint of the host's /etc/crictl.yaml, else its defaults.
std::vector<std::string> CrictlEndpoints(const std::string& option, const HostRoot& host);

// "" when one of `endpoints` is a socket on the host (or is not a unix
// socket path, which cannot be checked); else why crictl cannot connect:
// "no runtime socket at /run/containerd/containerd.sock, /run/crio/crio.sock".
std::string MissingCrictlSocket(const std::vector<std::string>& endpoints, const HostRoot& host);

// The same for ctr's containerd address ("" = the default).
std::string MissingContainerdSocket(const std::string& address, const HostRoot& host);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_RUNTIME_SOCKETS_H_
