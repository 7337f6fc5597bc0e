// One redaction run: the options, the pseudonym map, the text redactor and
// the learner, and what applies to the manifest itself.
//
// Used by `collect --redact` (on the node, over the staged outputs) and by
// `gpuforensics redact` (offline, over a bundle): both learn first, Seal(),
// then redact every stream and the manifest, then save the map.
#ifndef GPUF_COLLECTOR_REDACT_REDACTION_H_
#define GPUF_COLLECTOR_REDACT_REDACTION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/redact/literal_learner.h"
#include "collector/redact/map_lock.h"
#include "collector/redact/pseudonym_map.h"
#include "collector/redact/text_redactor.h"
#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

struct RedactOptions {
  std::string classes;                     // --redact-classes, "" = the defaults
  std::vector<std::string> keywords;       // --redact-keyword
  std::vector<std::string> pattern_files;  // --redact-pattern: RE2 per line, '#' comments
  std::string map_path;                    // --map; "" = DefaultMapPath(output)
  bool force = false;                      // redact --force: an existing regular file at OUT may be replaced
};

// "case/b.tar.zst" -> "case/b.map.json": beside the bundle, never inside.
std::string DefaultMapPath(const std::string& bundle_path);

// Fails with IoError when the map could not be written where it goes: found
// before a collection or a redaction runs, not after.
Status CheckMapWritable(const std::string& map_path);

// Reads a --redact-pattern file. Fails with InvalidArgument naming
// "FILE:LINE" and RE2's complaint for a bad pattern, or the file.
Result<std::vector<std::unique_ptr<RE2>>> LoadUserPatterns(const std::string& path);

class RedactionRun {
 public:
  // Fails with InvalidArgument (unknown class, bad pattern file) or
  // BadInput/IoError (the map file). With a map path, waits for any other
  // run on that map to end (MapLock) and holds it until this run ends.
  static Result<std::unique_ptr<RedactionRun>> Open(const RedactOptions& options, const std::string& map_path);

  TextRedactor& text() { return *text_; }
  LiteralLearner& learner() { return learner_; }
  PseudonymMap& map() { return map_; }
  const std::string& map_path() const { return map_path_; }

  // Host identity, an imported bundle's source name, and the free-text
  // fields of every artifact (argv, paths, instance, error, source file).
  // Boot ids, container ids, member names and hashes stay.
  void RedactHost(Manifest& manifest);
  void RedactArtifactFields(ManifestArtifact& artifact);
  // What the manifest records about this run.
  ManifestRedaction Summary(const std::string& by) const;

  Status SaveMap() const { return map_.Save(map_path_); }

 private:
  RedactionRun(PseudonymMap map, std::string map_path, std::set<std::string> classes);

  std::optional<MapLock> lock_;  // held from loading the map until the run ends
  PseudonymMap map_;
  std::string map_path_;
  std::unique_ptr<TextRedactor> text_;
  LiteralLearner learner_;
  int user_patterns_ = 0;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_REDACTION_H_
