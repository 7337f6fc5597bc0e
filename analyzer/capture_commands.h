// The command that captures a logical artifact by hand (schema/bundle.md),
// for the report's advice on an imported input: what to capture next time,
// and which capture would decide what it cannot tell.
#ifndef GPUF_ANALYZER_CAPTURE_COMMANDS_H_
#define GPUF_ANALYZER_CAPTURE_COMMANDS_H_

#include <string>
#include <string_view>

namespace gpuf {

// "lspci -nn -d 10de:" for "pci.nvidia_functions"; a `journal.*` name gets
// its unit's journalctl. "gpuforensics collect" when no single command does.
std::string CaptureCommand(std::string_view artifact);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_CAPTURE_COMMANDS_H_
