#include "formats/nvidia_smi_query_text.h"

#include <charconv>
#include <set>
#include <string>
#include <vector>

#include "common/text_lines.h"
#include "formats/pci_address.h"

namespace gpuf {

namespace {

// One value on its way into a GPU: its text, and where to complain.
struct Value {
  std::string_view text;
  std::string_view path;
  int line = 0;
  std::vector<ParseWarning>* warnings = nullptr;

  std::optional<std::string> Text() const {
    if (IsNvidiaSmiSentinel(text)) return std::nullopt;
    return std::string(text);
  }
  std::optional<int64_t> Int() const {
    if (IsNvidiaSmiSentinel(text)) return std::nullopt;
    int64_t number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec == std::errc() && end == text.data() + text.size()) return number;
    Warn("expected a number");
    return std::nullopt;
  }
  std::optional<bool> YesNo() const {
    if (IsNvidiaSmiSentinel(text)) return std::nullopt;
    if (text == "Yes") return true;
    if (text == "No") return false;
    Warn("expected Yes or No");
    return std::nullopt;
  }
  void Warn(const char* what) const {
    warnings->push_back({line, std::string(path) + ": " + what + ", got '" + std::string(text) + "'"});
  }
};

// A GPU block's fields, by section path, and where each goes in the report.
struct Field {
  std::string_view path;
  void (*store)(NvidiaSmiGpu&, const Value&);
};

const Field kFields[] = {
    {"Product Name", [](NvidiaSmiGpu& g, const Value& v) { g.product_name = v.Text(); }},
    {"GPU UUID", [](NvidiaSmiGpu& g, const Value& v) { g.uuid = v.Text(); }},
    {"Serial Number", [](NvidiaSmiGpu& g, const Value& v) { g.serial = v.Text(); }},
    {"Minor Number", [](NvidiaSmiGpu& g, const Value& v) { g.minor_number = v.Int(); }},
    {"Persistence Mode", [](NvidiaSmiGpu& g, const Value& v) { g.persistence_mode = v.Text(); }},
    {"MIG Mode/Current", [](NvidiaSmiGpu& g, const Value& v) { g.mig_current = v.Text(); }},
    {"MIG Mode/Pending", [](NvidiaSmiGpu& g, const Value& v) { g.mig_pending = v.Text(); }},
    {"Fabric/State", [](NvidiaSmiGpu& g, const Value& v) { g.fabric_state = v.Text(); }},
    {"Fabric/Status", [](NvidiaSmiGpu& g, const Value& v) { g.fabric_status = v.Text(); }},
    {"PCI/Bus Id", [](NvidiaSmiGpu& g, const Value& v) { g.pci_bus_id = NormalizePciBusId(v.text); }},
    {"Retired Pages/Single Bit ECC",
     [](NvidiaSmiGpu& g, const Value& v) { g.retired_pages.single_bit_count = v.Int(); }},
    {"Retired Pages/Double Bit ECC",
     [](NvidiaSmiGpu& g, const Value& v) { g.retired_pages.double_bit_count = v.Int(); }},
    // Older drivers say "Blacklist", newer ones "Retirement".
    {"Retired Pages/Pending Page Blacklist",
     [](NvidiaSmiGpu& g, const Value& v) { g.retired_pages.pending = v.YesNo(); }},
    {"Retired Pages/Pending Page Retirement",
     [](NvidiaSmiGpu& g, const Value& v) { g.retired_pages.pending = v.YesNo(); }},
    {"Remapped Rows/Correctable Error",
     [](NvidiaSmiGpu& g, const Value& v) { g.remapped_rows.correctable = v.Int(); }},
    {"Remapped Rows/Uncorrectable Error",
     [](NvidiaSmiGpu& g, const Value& v) { g.remapped_rows.uncorrectable = v.Int(); }},
    {"Remapped Rows/Pending", [](NvidiaSmiGpu& g, const Value& v) { g.remapped_rows.pending = v.YesNo(); }},
    {"Remapped Rows/Remapping Failure Occurred",
     [](NvidiaSmiGpu& g, const Value& v) { g.remapped_rows.failure = v.YesNo(); }},
};

// By the end of the path: what a paste has above the fields it kept (a
// prompt, grep's "--") is not a section of the report.
bool PathEndsWith(std::string_view path, std::string_view field) {
  if (path == field) return true;
  return path.size() > field.size() && path.substr(path.size() - field.size()) == field &&
         path[path.size() - field.size() - 1] == '/';
}

const Field* FieldAt(std::string_view path) {
  for (const Field& f : kFields) {
    if (PathEndsWith(path, f.path)) return &f;
  }
  return nullptr;
}

// "GPU 00000000:18:00.0" opens a GPU block; its bus id is the block's.
std::optional<std::string> GpuHeader(std::string_view line) {
  if (line.rfind("GPU ", 0) != 0) return std::nullopt;
  return NormalizePciBusId(Trim(line.substr(4)));
}

struct Section {
  size_t indent;
  std::string name;
};

class QueryReader {
 public:
  explicit QueryReader(NvidiaSmiXml& out) : out_(out) {}

  void Line(int number, std::string_view raw) {
    std::string_view line = TrimRight(raw);
    std::string_view content = TrimLeft(line);
    if (content.empty()) return;
    size_t indent = line.size() - content.size();
    while (!sections_.empty() && sections_.back().indent >= indent) sections_.pop_back();
    if (std::optional<std::string> bus = GpuHeader(content)) {
      Open(number);
      gpu_->pci_bus_id = bus;
      sections_.clear();
      return;
    }
    size_t colon = content.find(" :");
    if (colon == std::string_view::npos) {
      sections_.push_back({indent, std::string(content)});
      return;
    }
    std::string path;
    for (const Section& s : sections_) path += s.name + "/";
    path += std::string(Trim(content.substr(0, colon)));
    Value value{Trim(content.substr(colon + 2)), path, number, &out_.warnings};
    Store(number, path, value);
  }

  void Finish() {
    if (gpu_) out_.gpus.push_back(*gpu_);
  }

 private:
  void Open(int line) {
    Finish();
    gpu_ = NvidiaSmiGpu{};
    gpu_->line = line;
    seen_.clear();
  }

  void Store(int line, const std::string& path, const Value& value) {
    if (PathEndsWith(path, "Driver Version")) out_.driver_version = value.Text();
    if (PathEndsWith(path, "CUDA Version")) out_.cuda_version = value.Text();
    if (PathEndsWith(path, "Attached GPUs")) out_.attached_gpus = value.Int();
    const Field* field = FieldAt(path);
    if (field == nullptr) return;
    // A fragment without headers: the same field again is the next GPU's.
    if (!gpu_ || !seen_.insert(field->path).second) {
      Open(line);
      seen_.insert(field->path);
    }
    field->store(*gpu_, value);
  }

  NvidiaSmiXml& out_;
  std::optional<NvidiaSmiGpu> gpu_;
  std::set<std::string_view> seen_;
  std::vector<Section> sections_;
};

}  // namespace

NvidiaSmiXml ParseNvidiaSmiQueryText(std::string_view text) {
  NvidiaSmiXml parsed;
  QueryReader reader(parsed);
  ForEachLine(text, [&](int number, std::string_view line) { reader.Line(number, line); });
  reader.Finish();
  return parsed;
}

}  // namespace gpuf
