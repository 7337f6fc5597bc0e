#include "collector/nvidia_pci.h"

#include "common/text_lines.h"

namespace gpuf {

std::vector<NvidiaPciFunction> ReadNvidiaPciFunctions(const HostRoot& host, const std::string& dir) {
  std::vector<NvidiaPciFunction> functions;
  auto names = host.ListDir(dir);
  if (!names.ok()) return functions;
  auto read = [&](const std::string& path) {
    auto value = host.ReadSmallFile(path, 64);
    return value.ok() ? std::string(TrimRight(*value, " \r\n")) : std::string();
  };
  for (const auto& name : *names) {
    const std::string base = JoinHostPath(dir, name);
    if (read(base + "/vendor") != "0x10de") continue;
    functions.push_back({name, read(base + "/device"), read(base + "/class")});
  }
  return functions;
}

}  // namespace gpuf
