// Parses `nvidia-smi -q` as people save and paste it: the text form of the
// report `nvidia-smi -q -x` writes as XML, into the same fields.
//   Attached GPUs                             : 8
//   GPU 00000000:18:00.0
//       Product Name                          : NVIDIA H100 80GB HBM3
//       Fabric
//           State                             : In Progress
// Sections nest by indentation, whatever its width. A fragment without the
// "GPU <bus id>" header (`nvidia-smi -q | grep -A3 Fabric`) still describes
// a GPU: its fields open one, and a field seen twice opens the next. Sentinels
// ("N/A", "[N/A]", ...) are unknown, as in the XML.
//
// Never fails; a value that should be a number or Yes/No and is not becomes a
// warning.
#ifndef GPUF_FORMATS_NVIDIA_SMI_QUERY_TEXT_H_
#define GPUF_FORMATS_NVIDIA_SMI_QUERY_TEXT_H_

#include <string_view>

#include "formats/nvidia_smi_xml.h"

namespace gpuf {

NvidiaSmiXml ParseNvidiaSmiQueryText(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_NVIDIA_SMI_QUERY_TEXT_H_
