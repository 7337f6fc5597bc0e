#include "collector/runtime_sockets.h"

#include "common/text_lines.h"

namespace gpuf {

namespace {

// A socket, or a link that may lead to one (not followed: the runtime's own business).
bool IsSocket(const std::string& path, const HostRoot& host) {
  auto info = host.Lstat(path);
  return info.ok() && (S_ISSOCK(info->st.st_mode) || S_ISLNK(info->st.st_mode));
}

// The value of `runtime-endpoint:` in crictl.yaml, unquoted; "" when none.
std::string ConfiguredEndpoint(const std::string& yaml) {
  std::string found;
  ForEachLine(yaml, [&](int, std::string_view line) {
    line = Trim(line);
    constexpr std::string_view kKey = "runtime-endpoint:";
    if (!found.empty() || line.substr(0, kKey.size()) != kKey) return;
    std::string_view value = Trim(line.substr(kKey.size()));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    found = std::string(value);
  });
  return found;
}

}  // namespace

std::vector<std::string> CrictlEndpoints(const std::string& option, const HostRoot& host) {
  if (!option.empty()) return {option};
  if (auto yaml = host.ReadSmallFile("/etc/crictl.yaml", 64 * 1024); yaml.ok()) {
    std::string configured = ConfiguredEndpoint(*yaml);
    if (!configured.empty()) return {configured};
  }
  return {std::begin(kCrictlDefaultEndpoints), std::end(kCrictlDefaultEndpoints)};
}

std::string MissingCrictlSocket(const std::vector<std::string>& endpoints, const HostRoot& host) {
  std::string paths;
  for (const auto& endpoint : endpoints) {
    constexpr std::string_view kUnix = "unix://";
    if (endpoint.rfind(kUnix, 0) != 0 && endpoint.rfind("/", 0) != 0) return "";  // tcp://, npipe://
    std::string path = endpoint.rfind(kUnix, 0) == 0 ? endpoint.substr(kUnix.size()) : endpoint;
    if (IsSocket(path, host)) return "";
    paths += (paths.empty() ? "" : ", ") + path;
  }
  return "no runtime socket at " + paths;
}

std::string MissingContainerdSocket(const std::string& address, const HostRoot& host) {
  std::string path = address.empty() ? std::string(kContainerdDefaultAddress) : address;
  if (path.rfind("unix://", 0) == 0) path = path.substr(7);
  return IsSocket(path, host) ? "" : "no containerd socket at " + path;
}

}  // namespace gpuf
