#include "formats/nvidia_smi_error.h"

#include <algorithm>
#include <cctype>

#include "common/text_lines.h"
#include "formats/pci_address.h"

namespace gpuf {

namespace {

using Outcome = NvidiaSmiOutcome;

// Failures of the whole run, strongest first: when nvidia-smi could not even
// start, nothing else printed is its own; an NVML init failure explains a
// missing device list, not the other way round.
struct RunFailure {
  std::string_view text;
  Outcome outcome;
};
constexpr RunFailure kRunFailures[] = {
    {"executable file not found", Outcome::kExecutableMissing},
    {"couldn't communicate with the NVIDIA driver", Outcome::kDriverNotLoaded},
    {"Failed to initialize NVML: Driver Not Loaded", Outcome::kDriverNotLoaded},
    {"Driver/library version mismatch", Outcome::kVersionMismatch},
    {"Failed to initialize NVML: Insufficient Permissions", Outcome::kInsufficientPermissions},
    {"Failed to initialize NVML: Unknown Error", Outcome::kNvmlUnknownError},
    {"No devices were found", Outcome::kNoDevices},
    {"Failed to initialize NVML: ", Outcome::kOther},
};
constexpr int kRankGpuLost = std::size(kRunFailures);
constexpr int kRankHandleError = kRankGpuLost + 1;
constexpr int kRankNone = kRankHandleError + 1;

// Takes between min and max hex digits off the front of s.
bool TakeHex(std::string_view& s, size_t min, size_t max) {
  size_t n = 0;
  while (n < max && n < s.size() && std::isxdigit(static_cast<unsigned char>(s[n]))) ++n;
  if (n < min) return false;
  s.remove_prefix(n);
  return true;
}

bool TakeChar(std::string_view& s, std::string_view chars) {
  if (s.empty() || chars.find(s[0]) == std::string_view::npos) return false;
  s.remove_prefix(1);
  return true;
}

// The handle message names the GPU as "GPU 0000:09:00.0" (older drivers),
// "GPU0000:07:00.0" (newer) or "GPU1: 0000:3b:00.0"; the domain may have 8
// digits. Fills pci and reason; false when the line is not of that shape.
bool ParseHandleError(std::string_view line, std::string& pci, std::string& reason) {
  const std::string_view prefix = "Unable to determine the device handle for ";
  size_t at = line.find(prefix);
  if (at == std::string_view::npos) return false;
  std::string_view s = line.substr(at + prefix.size());
  if (s.size() < 3 || AsciiLower(s.substr(0, 3)) != "gpu") return false;
  s.remove_prefix(3);
  TakeChar(s, " \t");
  // "GPU1: 0000:...": an index, told from a bare domain by the space after its colon.
  size_t digits = s.find_first_not_of("0123456789");
  if (digits != std::string_view::npos && digits > 0 && s.substr(digits, 2) == ": ") s.remove_prefix(digits + 2);
  std::string_view address = s;
  if (!TakeHex(s, 4, 8) || !TakeChar(s, ":") || !TakeHex(s, 2, 2) || !TakeChar(s, ":") || !TakeHex(s, 2, 2) ||
      !TakeChar(s, ".") || !TakeChar(s, "01234567")) {
    return false;
  }
  pci = std::string(address.substr(0, address.size() - s.size()));
  if (!TakeChar(s, ":")) return false;
  reason = std::string(Trim(s, " \t"));
  return true;
}

std::string SysfsPci(std::string_view pci) { return NormalizePciBusId(pci).value_or(AsciiLower(pci)); }

// A wrapper's "No such file or directory" is about nvidia-smi only when it
// names it; NVML prints the same words for a missing libnvidia-ml.so.
bool NamesMissingNvidiaSmi(std::string_view line) {
  if (line.find("nvidia-smi") == std::string_view::npos) return false;
  std::string lower = AsciiLower(line);
  for (const char* words : {"no such file or directory", "command not found", "nvidia-smi: not found"}) {
    if (lower.find(words) != std::string::npos) return true;
  }
  return false;
}

int Rank(std::string_view line) {
  if (NamesMissingNvidiaSmi(line)) return 0;
  for (size_t i = 0; i < std::size(kRunFailures); ++i) {
    if (line.find(kRunFailures[i].text) != std::string_view::npos) return static_cast<int>(i);
  }
  return line.find("GPU is lost") != std::string_view::npos ? kRankGpuLost : kRankNone;
}

Outcome OutcomeOfRank(int rank) {
  if (rank < kRankGpuLost) return kRunFailures[rank].outcome;
  return rank == kRankGpuLost ? Outcome::kGpuLost : Outcome::kDeviceHandleError;
}

class Classifier {
 public:
  explicit Classifier(NvidiaSmiRun& run) : run_(run) {}

  void Scan(std::string_view text, bool from_stderr) {
    ForEachLine(text, [&](int number, std::string_view raw) {
      std::string_view line = Trim(raw, " \t");
      if (line.empty()) return;
      if (first_stream_line_[from_stderr].empty()) first_stream_line_[from_stderr] = std::string(line);
      if (warning_line_.empty() && line.rfind("WARNING:", 0) == 0) warning_line_ = std::string(line);
      const std::string_view version = "NVML library version:";
      if (line.rfind(version, 0) == 0) {
        run_.nvml_library_version = std::string(Trim(line.substr(version.size()), " \t"));
      }
      Consider(HandleErrorRank(number, line, from_stderr), line);
      Consider(Rank(line), line);
    });
  }

  void Finish(std::optional<int> exit_code) {
    if (rank_ < kRankNone) {
      run_.outcome = OutcomeOfRank(rank_);
      run_.message = message_;
      return;
    }
    run_.outcome = FromExitCode(exit_code);
    // Exit 14: a corrupted infoROM, reported beside a working GPU's table.
    if (exit_code == 14) {
      run_.outcome = Outcome::kOk;
      run_.message = warning_line_;
      return;
    }
    if (run_.outcome == Outcome::kOk) return;
    run_.message = !warning_line_.empty()         ? warning_line_
                   : !first_stream_line_[1].empty() ? first_stream_line_[1]
                                                    : first_stream_line_[0];
  }

 private:
  int HandleErrorRank(int number, std::string_view line, bool from_stderr) {
    if (line.find("Unable to determine the device handle") == std::string_view::npos) return kRankNone;
    std::string pci, reason;
    if (!ParseHandleError(line, pci, reason)) {
      run_.warnings.push_back({number, "device handle error without a PCI address: " + std::string(line)});
      return kRankHandleError;
    }
    run_.handle_errors.push_back({number, from_stderr, SysfsPci(pci), std::string(Trim(reason, " \t"))});
    return kRankHandleError;
  }

  void Consider(int rank, std::string_view line) {
    if (rank >= rank_) return;
    rank_ = rank;
    message_ = std::string(line);
  }

  static Outcome FromExitCode(std::optional<int> exit_code) {
    if (!exit_code) return Outcome::kOther;
    switch (*exit_code) {
      case 0: return Outcome::kOk;
      case 4: return Outcome::kInsufficientPermissions;
      case 9: return Outcome::kDriverNotLoaded;
      case 15: return Outcome::kGpuLost;
      case 127: return Outcome::kExecutableMissing;  // the shell's "command not found"
    }
    return Outcome::kOther;
  }

  NvidiaSmiRun& run_;
  int rank_ = kRankNone;
  std::string message_;
  std::string warning_line_;
  std::string first_stream_line_[2];  // [from_stderr]
};

}  // namespace

NvidiaSmiRun ClassifyNvidiaSmi(std::string_view stdout_text, std::string_view stderr_text,
                               std::optional<int> exit_code) {
  NvidiaSmiRun run;
  Classifier classifier(run);
  classifier.Scan(stdout_text, false);
  classifier.Scan(stderr_text, true);
  classifier.Finish(exit_code);
  return run;
}

const char* NvidiaSmiOutcomeName(NvidiaSmiOutcome outcome) {
  switch (outcome) {
    case Outcome::kOk: return "ok";
    case Outcome::kNvmlUnknownError: return "nvml_unknown_error";
    case Outcome::kDriverNotLoaded: return "driver_not_loaded";
    case Outcome::kNoDevices: return "no_devices";
    case Outcome::kVersionMismatch: return "version_mismatch";
    case Outcome::kInsufficientPermissions: return "insufficient_permissions";
    case Outcome::kDeviceHandleError: return "device_handle_error";
    case Outcome::kGpuLost: return "gpu_lost";
    case Outcome::kExecutableMissing: return "executable_missing";
    case Outcome::kTimedOut: return "timed_out";
    case Outcome::kOther: return "other";
  }
  return "other";
}

}  // namespace gpuf
