#include "formats/bpf_device_program.h"

#include <re2/re2.h>

#include <array>
#include <cerrno>
#include <cstdlib>

#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// "0x2", "65535", "-1": bpftool prints immediates in hex or decimal.
std::optional<int64_t> Immediate(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 0);
  if (errno != 0 || end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

// A register operand: "r3" or "w3".
bool Register(const std::string& text, bool* wide, int* number) {
  if (text.size() < 2 || (text[0] != 'r' && text[0] != 'w')) return false;
  std::optional<int64_t> n = Immediate(text.substr(1));
  if (!n || *n < 0 || *n > 10) return false;
  *wide = text[0] == 'r';
  *number = static_cast<int>(*n);
  return true;
}

// The source operand of an ALU op or a jump: a register or an immediate.
bool Source(const std::string& text, BpfInstruction& insn) {
  bool wide = false;
  if (Register(text, &wide, &insn.src)) {
    insn.src_is_reg = true;
    return true;
  }
  std::optional<int64_t> imm = Immediate(text);
  if (!imm) return false;
  insn.imm = *imm;
  return true;
}

std::optional<BpfInstruction> ParseInstruction(const std::string& text) {
  static const RE2 load(R"(r(\d+) = \*\(u(8|16|32|64) \*\)\(r(\d+) ([+-]\d+)\))", BytePatternOptions());
  static const RE2 alu(R"(([rw]\d+) (=|&=|\|=|\^=|\+=|-=|\*=|<<=|>>=|s>>=) (\S+))", BytePatternOptions());
  static const RE2 jump(R"(if ([rw]\d+) (==|!=|>|>=|<|<=|&|s>|s>=|s<|s<=) (\S+) goto pc([+-]\d+))",
                        BytePatternOptions());
  static const RE2 jump_always(R"(goto pc([+-]\d+))", BytePatternOptions());
  BpfInstruction insn;
  int dst = 0, bits = 0, base = 0, offset = 0;
  std::string a, op, b;
  if (text == "exit") return insn;
  if (RE2::FullMatch(text, load, &dst, &bits, &base, &offset)) {
    if (dst > 10) return std::nullopt;
    insn.kind = BpfInstruction::Kind::kLoad;
    insn.dst = dst;
    insn.size = bits / 8;
    insn.src = base;
    insn.imm = offset;
    return insn;
  }
  if (RE2::FullMatch(text, jump, &a, &op, &b, &offset)) {
    insn.kind = BpfInstruction::Kind::kJump;
    insn.op = op;
    insn.offset = offset;
    if (!Register(a, &insn.wide, &insn.dst) || !Source(b, insn)) return std::nullopt;
    return insn;
  }
  if (RE2::FullMatch(text, jump_always, &offset)) {
    insn.kind = BpfInstruction::Kind::kGoto;
    insn.offset = offset;
    return insn;
  }
  if (RE2::FullMatch(text, alu, &a, &op, &b)) {
    insn.kind = BpfInstruction::Kind::kAlu;
    insn.op = op;
    if (!Register(a, &insn.wide, &insn.dst) || !Source(b, insn)) return std::nullopt;
    return insn;
  }
  return std::nullopt;
}

uint64_t Alu(const std::string& op, uint64_t a, uint64_t b, bool wide) {
  if (!wide) {
    a &= 0xffffffffULL;
    b &= 0xffffffffULL;
  }
  const unsigned shift = static_cast<unsigned>(b & (wide ? 63 : 31));
  uint64_t r = a;
  if (op == "=") r = b;
  else if (op == "&=") r = a & b;
  else if (op == "|=") r = a | b;
  else if (op == "^=") r = a ^ b;
  else if (op == "+=") r = a + b;
  else if (op == "-=") r = a - b;
  else if (op == "*=") r = a * b;
  else if (op == "<<=") r = a << shift;
  else if (op == ">>=") r = a >> shift;
  else if (op == "s>>=") r = wide ? static_cast<uint64_t>(static_cast<int64_t>(a) >> shift)
                                  : static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(a) >> shift));
  return wide ? r : r & 0xffffffffULL;
}

bool Compare(const std::string& op, uint64_t a, uint64_t b, bool wide) {
  if (!wide) {
    a &= 0xffffffffULL;
    b &= 0xffffffffULL;
  }
  const int64_t sa = wide ? static_cast<int64_t>(a) : static_cast<int32_t>(a);
  const int64_t sb = wide ? static_cast<int64_t>(b) : static_cast<int32_t>(b);
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == ">") return a > b;
  if (op == ">=") return a >= b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == "&") return (a & b) != 0;
  if (op == "s>") return sa > sb;
  if (op == "s>=") return sa >= sb;
  if (op == "s<") return sa < sb;
  return sa <= sb;  // "s<="
}

}  // namespace

BpfDeviceProgram ParseBpfXlated(std::string_view text) {
  // "   6: (55) if r2 != 0x2 goto pc+4": index, opcode, instruction.
  static const RE2 numbered(R"(\s*(\d+): \(([0-9a-f]{2})\) (.*?)\s*)", BytePatternOptions());
  BpfDeviceProgram program;
  bool understood = true;
  ForEachLine(text, [&](int line, std::string_view raw) {
    int index = 0;
    std::string opcode, body;
    if (!RE2::FullMatch(raw, numbered, &index, &opcode, &body)) return;  // source comments, blank lines
    if (index != static_cast<int>(program.instructions.size())) {
      program.warnings.push_back({line, "instruction " + std::to_string(index) + " out of sequence"});
      understood = false;
      return;
    }
    std::optional<BpfInstruction> insn = ParseInstruction(body);
    if (!insn) {
      program.warnings.push_back({line, "instruction not understood: " + body});
      understood = false;
      insn = BpfInstruction{};  // keeps the numbering; the program stays unreadable
    }
    insn->line = line;
    program.instructions.push_back(*insn);
  });
  if (program.instructions.empty()) program.warnings.push_back({0, "no instruction in the dump"});
  program.readable = understood && !program.instructions.empty();
  return program;
}

std::optional<bool> BpfDeviceAllows(const BpfDeviceProgram& program, char type, int64_t major, int64_t minor,
                                    int access) {
  if (!program.readable) return std::nullopt;
  // struct bpf_cgroup_dev_ctx: access_type (access << 16 | type), major, minor.
  const uint32_t dev_type = type == 'b' ? 1 : 2;
  const std::array<uint32_t, 3> context = {static_cast<uint32_t>(access) << 16 | dev_type,
                                           static_cast<uint32_t>(major), static_cast<uint32_t>(minor)};
  std::array<uint64_t, 11> reg{};
  constexpr int kContext = 1;
  bool context_in_r1 = true;  // r1 holds the context pointer until written
  const int64_t n = static_cast<int64_t>(program.instructions.size());
  int64_t pc = 0;
  // Device programs run forward only; a step bound of a few times their
  // length stops anything else.
  for (int64_t steps = 0; steps < 4 * n + 16 && pc >= 0 && pc < n; ++steps) {
    const BpfInstruction& insn = program.instructions[static_cast<size_t>(pc)];
    switch (insn.kind) {
      case BpfInstruction::Kind::kExit:
        return (reg[0] & 0xffffffffULL) != 0;
      case BpfInstruction::Kind::kLoad: {
        if (insn.src != kContext || !context_in_r1 || insn.imm < 0 || insn.imm % 4 != 0 || insn.imm / 4 >= 3) {
          return std::nullopt;
        }
        uint64_t value = context[static_cast<size_t>(insn.imm / 4)];
        if (insn.size == 2) value &= 0xffff;
        if (insn.size == 1) value &= 0xff;
        reg[insn.dst] = value;
        if (insn.dst == kContext) context_in_r1 = false;
        ++pc;
        break;
      }
      case BpfInstruction::Kind::kAlu: {
        uint64_t src = insn.src_is_reg ? reg[insn.src] : static_cast<uint64_t>(insn.imm);
        reg[insn.dst] = Alu(insn.op, reg[insn.dst], src, insn.wide);
        if (insn.dst == kContext) context_in_r1 = false;
        ++pc;
        break;
      }
      case BpfInstruction::Kind::kJump: {
        uint64_t src = insn.src_is_reg ? reg[insn.src] : static_cast<uint64_t>(insn.imm);
        pc += 1 + (Compare(insn.op, reg[insn.dst], src, insn.wide) ? static_cast<int64_t>(insn.offset) : 0);
        break;
      }
      case BpfInstruction::Kind::kGoto:
        pc += 1 + static_cast<int64_t>(insn.offset);
        break;
    }
  }
  return std::nullopt;
}

}  // namespace gpuf
