// `lspci` as people paste it, to the collector's PCI table (schema/bundle.md,
// "PCI table"): the NVIDIA functions, with their class and device id.
//   3b:00.0 3D controller: NVIDIA Corporation GV100GL [Tesla V100 PCIe 32GB] (rev a1)
//   0000:18:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] [10de:2330] (rev a1)
//   05:00.0 Bridge: NVIDIA Corporation Device 22a3 (rev a1)
//   3b:00.0 0302: 10de:1db6 (rev a1)                       (lspci -n)
// `-nn` gives the class and the ids in brackets; without it the class comes
// from its name and the device id only where lspci had no name for it
// ("Device 22a3"). An address without a domain is in domain 0000. Other
// vendors' functions, and lines that are no lspci row, are left out.
#ifndef GPUF_IMPORTER_LSPCI_TABLE_H_
#define GPUF_IMPORTER_LSPCI_TABLE_H_

#include <string_view>

#include "importer/saved_outputs.h"

namespace gpuf {

// The table with its header; rows 0 when the text names no NVIDIA function.
Converted LspciToPciTable(std::string_view text);

// The text shows every NVIDIA function there is: it lists the whole bus
// (with the host bridge every listing starts with), or `command` kept the
// NVIDIA and display rows of it (`lspci | grep -i nvidia`, `lspci -d 10de:`).
// Only then do no NVIDIA rows mean no NVIDIA device; what a grep for
// another vendor kept says nothing of them.
bool LspciShowsEveryNvidiaFunction(std::string_view text, std::string_view command);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_LSPCI_TABLE_H_
