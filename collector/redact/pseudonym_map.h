// The pseudonym map: one consistent replacement per original, kept by the
// operator and never put inside a bundle.
//
// The same original always gets the same pseudonym, within a bundle and
// across every bundle redacted with the same map file (`--map FILE`), so
// timelines and diffs of one case still line up. The file also keeps the
// provenance of each redaction: the original bundle's sha256 and every
// original member hash, which the redacted bundle itself no longer carries.
//
// File format (JSON, written 0600 via a temporary file and a rename):
//   {"format": "gpuforensics-redaction-map", "format_version": 1,
//    "entries": [{"family": "ipv4", "original": "10.0.0.7", "pseudonym": "192.0.2.1"}, ...],
//    "bundles": [{"by": "redact", "input": ..., "input_sha256": ..., "members": [...]}, ...]}
#ifndef GPUF_COLLECTOR_REDACT_PSEUDONYM_MAP_H_
#define GPUF_COLLECTOR_REDACT_PSEUDONYM_MAP_H_

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collector/redact/redact_class.h"
#include "common/status.h"

namespace gpuf {

class PseudonymMap {
 public:
  // A missing file is an empty map. Fails with BadInput naming the file
  // when it exists but is not a map this version understands, IoError when
  // it cannot be read.
  static Result<PseudonymMap> Load(const std::string& path);

  // The pseudonym of `original`, made on first sight. Originals are compared
  // in canonical form (lower case for names and hex, one spelling per IPv6
  // address), so "GPU-NODE-7" and "gpu-node-7" share one.
  std::string PseudonymFor(Family family, std::string_view original);

  // The pseudonym already given to `original`, or nullptr.
  const std::string* Find(Family family, std::string_view original) const;

  // True when `text` is a pseudonym this map handed out (never redacted twice).
  bool IsPseudonym(std::string_view text) const { return pseudonyms_.count(std::string(text)) > 0; }

  size_t size() const { return entries_.size(); }

  // Appends one provenance record (see the file format above).
  void AddProvenance(nlohmann::json record) { bundles_.push_back(std::move(record)); }

  // Writes the whole map. Fails with IoError; on failure the old file stays.
  Status Save(const std::string& path) const;

 private:
  struct Entry {
    Family family;
    std::string original;
    std::string pseudonym;
  };

  std::vector<Entry> entries_;                                  // in order of first sight
  std::map<std::pair<Family, std::string>, size_t> by_original_;  // canonical -> entries_ index
  std::map<Family, int> next_index_;
  std::set<std::string> pseudonyms_;
  std::vector<nlohmann::json> bundles_;
};

// The form originals are compared in (see PseudonymFor).
std::string CanonicalOriginal(Family family, std::string_view original);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_PSEUDONYM_MAP_H_
