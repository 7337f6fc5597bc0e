#include "collector/redact/pseudonym_map.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/file_io.h"
#include "common/json_bytes.h"
#include "common/json_fields.h"
#include "common/output_file.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

using nlohmann::json;

constexpr std::string_view kMapFormat = "gpuforensics-redaction-map";

// The map holds every original: private (0600) while written and after, and
// never written through a planted link (common/output_file.h). An existing
// map was read and checked as one by Load before it is replaced.
Status WritePrivateFile(const std::string& path, const std::string& data) {
  GPUF_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(path, Replace::kRegularFile, "the map file"));
  GPUF_RETURN_IF_ERROR(out.Write(data));
  return out.Publish(0600);
}

}  // namespace

std::string CanonicalOriginal(Family family, std::string_view original) {
  switch (family) {
    case Family::kIpv6: {
      std::string text(original);
      in6_addr address;
      char buf[INET6_ADDRSTRLEN];
      if (inet_pton(AF_INET6, text.c_str(), &address) == 1 && inet_ntop(AF_INET6, &address, buf, sizeof buf)) {
        return buf;
      }
      return AsciiLower(original);
    }
    case Family::kMac: {
      std::string mac = AsciiLower(original);
      for (char& c : mac) {
        if (c == '-') c = ':';
      }
      return mac;
    }
    case Family::kUsername:
    case Family::kNamespace:
    case Family::kPod:
    case Family::kIpv4:
    case Family::kGpuSerial: return std::string(original);
    case Family::kHostname:
    case Family::kMachineId:
    case Family::kCloudId:
    case Family::kKeyword:
    case Family::kGpuUuid: return AsciiLower(original);
  }
  return std::string(original);
}

Result<PseudonymMap> PseudonymMap::Load(const std::string& path) {
  PseudonymMap map;
  struct stat st;
  if (path.empty() || (stat(path.c_str(), &st) != 0 && errno == ENOENT)) return map;
  GPUF_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path));
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) { return Status::BadInput("map file '" + path + "'", why); };
  if (!doc.is_object() || StringField(doc, "format") != kMapFormat) return bad("not a gpuforensics redaction map");
  if (!doc["format_version"].is_number_integer() || doc["format_version"].get<int>() != 1) {
    return bad("format_version is not 1");
  }
  const json& entries = doc["entries"];
  if (!entries.is_array()) return bad("'entries' is not an array");
  for (const auto& e : entries) {
    std::string family_name = StringField(e, "family");
    std::string original = BytesField(e, "original");
    std::string pseudonym = StringField(e, "pseudonym");
    if (family_name.empty() || original.empty() || pseudonym.empty()) {
      return bad("an entry lacks family, original or pseudonym");
    }
    auto family = FamilyNamed(family_name);
    if (!family.ok()) return bad(family.status().message());
    Entry entry{*family, CanonicalOriginal(*family, original), pseudonym};
    if (!map.by_original_.emplace(std::make_pair(entry.family, entry.original), map.entries_.size()).second) {
      return bad("'" + entry.original + "' appears twice");
    }
    map.pseudonyms_.insert(entry.pseudonym);
    ++map.next_index_[entry.family];
    map.entries_.push_back(std::move(entry));
  }
  if (doc["bundles"].is_array()) {
    for (const auto& b : doc["bundles"]) map.bundles_.push_back(b);
  }
  return map;
}

const std::string* PseudonymMap::Find(Family family, std::string_view original) const {
  auto it = by_original_.find({family, CanonicalOriginal(family, original)});
  return it == by_original_.end() ? nullptr : &entries_[it->second].pseudonym;
}

std::string PseudonymMap::PseudonymFor(Family family, std::string_view original) {
  std::string canonical = CanonicalOriginal(family, original);
  auto it = by_original_.find({family, canonical});
  if (it != by_original_.end()) return entries_[it->second].pseudonym;
  std::string pseudonym;
  do {
    pseudonym = MakePseudonym(family, ++next_index_[family], original);
  } while (pseudonyms_.count(pseudonym));  // an edited map may have used the next one
  pseudonyms_.insert(pseudonym);
  by_original_.emplace(std::make_pair(family, canonical), entries_.size());
  entries_.push_back({family, canonical, std::move(pseudonym)});
  return entries_.back().pseudonym;
}

Status PseudonymMap::Save(const std::string& path) const {
  json entries = json::array();
  for (const auto& e : entries_) {
    entries.push_back({{"family", InfoOf(e.family).name}, {"original", e.original}, {"pseudonym", e.pseudonym}});
  }
  json doc = {{"format", kMapFormat},
              {"format_version", 1},
              {"note", "maps redacted values back to originals: keep it private, never attach it to a case"},
              {"entries", entries},
              {"bundles", bundles_}};
  return WritePrivateFile(path, DumpJson(doc, 2, NonUtf8::kByteArray) + "\n");
}

}  // namespace gpuf
