// Bytes as a node has them (not UTF-8, NUL, escape sequences) in every
// manifest field that comes from the node: the manifest must serialize
// without throwing and read back byte for byte; text for a terminal must
// come out UTF-8 with no control byte but newline and tab; JSON for people
// must be JSON.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/json_bytes.h"
#include "common/manifest.h"
#include "common/terminal_text.h"
#include "fuzz/fuzz_input.h"

namespace {

void CheckManifestRoundTrip(const std::string& bytes) {
  gpuf::Manifest m;
  m.format = "gpuforensics-bundle";
  m.format_version = 1;
  m.tool_name = "gpuforensics";
  m.tool_version = "0.1.0";
  m.hostname = m.node_name = m.machine_id = m.root = bytes;
  gpuf::ManifestArtifact a;
  a.name = "host.nvidia_smi_list";
  a.kind = "command";
  a.context = "host";
  a.argv = {"nvidia-smi", bytes};
  a.path = a.error = bytes;
  m.artifacts.push_back(a);
  const std::string text = gpuf::SerializeManifest(m);
  if (!gpuf::IsUtf8(text)) std::abort();
  auto back = gpuf::ParseManifest(text);
  if (!back.ok() || back->node_name != bytes || back->hostname != bytes || back->artifacts.size() != 1 ||
      back->artifacts[0].argv.at(1) != bytes || back->artifacts[0].error != bytes) {
    std::abort();
  }
}

void CheckTerminalText(const std::string& bytes) {
  const std::string shown = gpuf::TerminalSafe(bytes);
  if (!gpuf::IsUtf8(shown)) std::abort();
  for (unsigned char c : shown) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) std::abort();
  }
}

void CheckJsonForPeople(const std::string& bytes) {
  nlohmann::json doc = {{"message", bytes}, {bytes, 1}};
  if (!nlohmann::json::accept(gpuf::DumpJson(doc, -1, gpuf::NonUtf8::kEscaped))) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(gpuf::FuzzText(data, size));
  CheckManifestRoundTrip(bytes);
  CheckTerminalText(bytes);
  CheckJsonForPeople(bytes);
  return 0;
}
