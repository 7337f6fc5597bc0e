// What an adapter makes of another tool's capture: our logical artifacts
// with their bytes and where each came from, and the bundle written from them.
//
// Adapters fill an ImportPlan; WriteImportedBundle turns it into a bundle of
// our format (schema/bundle.md) whose manifest marks the origin, so the
// loader, parsers, timeline and rules read it like a collected one.
#ifndef GPUF_IMPORTER_IMPORT_PLAN_H_
#define GPUF_IMPORTER_IMPORT_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.h"
#include "common/status.h"
#include "importer/journal_text.h"

namespace gpuf {

struct ImportedArtifact {
  std::string name;          // logical name, e.g. "journal.kubelet"
  std::string instance;      // "boot:0", a host path, a container id, or ""
  std::string source_file;   // path in the source (and section or conversion), for people
  std::string bytes;         // in our stored format for `name`
  std::string container_id;  // for plugin.* artifacts when known
  std::string note;          // what the conversion could not read, "" when nothing
  std::optional<int> exit_code = std::nullopt;  // command outputs: when the text itself shows how it ended
  std::string context = "";  // "unknown" where nothing says where it ran; "" derives host/container from container_id
};

// One file of the source, and what became of it: the report's coverage
// lists every one, read or not.
struct InputFileRecord {
  std::string path;                    // in the source
  std::string read_as;                 // the shape it was read as ("dmesg -T"), "" when not read
  std::vector<std::string> artifacts;  // the logical names it became
  std::string note;                    // where the view came from, what was dropped or could not be read
  std::string not_read;                // why nothing was read ("not recognised: first line `...`"), "" when read
};

struct ImportPlan {
  std::string kind;          // "sosreport", "nvidia-bug-report", "must-gather", "evidence-dir"
  std::string source_name;   // the input's file or directory name
  std::string hostname;
  std::string boot_id;
  int64_t captured_at_ns = 0;  // when the source was captured, best known; 0 unknown
  int utc_offset_seconds = 0;
  std::vector<ImportedArtifact> artifacts;
  std::string journal_hostname;  // the host field of journal lines, when nothing better names the node
  std::vector<InputFileRecord> inputs;  // evidence-dir: every file; other kinds: what they say of their files
  std::vector<std::string> capture_next;  // commands that would capture what this kind cannot show

  void Add(ImportedArtifact a) { artifacts.push_back(std::move(a)); }
  bool Has(std::string_view name) const;
};

// The stream our loaders read for a logical name (the artifact table's):
// "stdout" for command outputs, "content" for files, listings and tables.
std::string StreamForName(const std::string& name);

// Writes the bundle to `output_path` (via a private work directory, removed
// afterwards), every artifact scrubbed of secrets as collect scrubs
// (collector/secrets.h). Fails with IoError, or Exists as WriteBundle; on
// failure no output is left.
Status WriteImportedBundle(const ImportPlan& plan, const std::vector<std::string>& cannot_show,
                           const std::string& output_path, Replace replace = Replace::kNever);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_IMPORT_PLAN_H_
