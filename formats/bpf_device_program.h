// A cgroup v2 device program as `bpftool prog dump xlated id N` prints it:
//    0: (61) r2 = *(u32 *)(r1 +0)
//    1: (54) w2 &= 65535
//    6: (55) if r2 != 0x2 goto pc+4
//   12: (b4) w0 = 1
//   13: (95) exit
// On cgroup v2 a container's allowed devices are such a program (runc's,
// crun's, systemd's for DeviceAllow, or the NVIDIA hook's own), not a list.
// Rather than match one generator's shape, the program is run: for a device
// and an access it says allow or deny, as the kernel would. Only what device
// programs use is known: loads from the context, 32- and 64-bit ALU with an
// immediate or a register, conditional and plain jumps, exit. Anything else
// makes the program unreadable, never guessed.
#ifndef GPUF_FORMATS_BPF_DEVICE_PROGRAM_H_
#define GPUF_FORMATS_BPF_DEVICE_PROGRAM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct BpfInstruction {
  enum class Kind { kLoad, kAlu, kJump, kGoto, kExit };
  Kind kind = Kind::kExit;
  bool wide = true;       // 64-bit (rN) rather than 32-bit (wN)
  int dst = 0;
  std::string op;         // ALU: "=", "&=", ">>=", ...; jump: "==", "!=", ">", ...
  bool src_is_reg = false;
  int src = 0;            // register, or the context's base for a load
  int64_t imm = 0;        // immediate, or the load's offset
  int size = 4;           // load: bytes
  int offset = 0;         // jump, goto: instructions to skip after this one
  int line = 0;
};

struct BpfDeviceProgram {
  std::vector<BpfInstruction> instructions;  // by index, as numbered
  bool readable = false;                     // every line understood, numbered without gaps
  std::vector<ParseWarning> warnings;
};

BpfDeviceProgram ParseBpfXlated(std::string_view text);

// The access bits of struct bpf_cgroup_dev_ctx (linux/bpf.h).
inline constexpr int kBpfDevMknod = 1;
inline constexpr int kBpfDevRead = 2;
inline constexpr int kBpfDevWrite = 4;

// Whether the program lets `access` to device type `type` ('c' or 'b')
// `major`:`minor` through; nullopt when it cannot tell (unreadable, or no
// exit within the program's length in steps).
std::optional<bool> BpfDeviceAllows(const BpfDeviceProgram& program, char type, int64_t major, int64_t minor,
                                    int access);

}  // namespace gpuf

#endif  // GPUF_FORMATS_BPF_DEVICE_PROGRAM_H_
