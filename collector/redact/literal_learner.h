// Learns the names a bundle holds before any of it is redacted.
//
// Addresses have a shape a pattern can find; a host name or a user name has
// none. So every member is read once first and the names are learned from
// where they are written with their meaning: the manifest, the hostname
// file, the journal's _HOSTNAME and _MACHINE_ID, klog node="..." fields, the
// Node object, /home/NAME and "for user NAME", pod and namespace labels, GPU
// serials. Then every occurrence of a learned name is replaced everywhere,
// including in free text that comes before the place it was learned from.
#ifndef GPUF_COLLECTOR_REDACT_LITERAL_LEARNER_H_
#define GPUF_COLLECTOR_REDACT_LITERAL_LEARNER_H_

#include <string>
#include <string_view>

#include "collector/redact/text_redactor.h"
#include "common/manifest.h"

namespace gpuf {

class LiteralLearner {
 public:
  explicit LiteralLearner(TextRedactor* redactor) : redactor_(redactor) {}

  // Host identity and the plugin pattern (device-plugin pods are kept).
  void LearnFromManifest(const Manifest& manifest);

  // Call Begin, then Line for every line of one stored stream, then End.
  void BeginMember(std::string_view artifact_name);
  void Line(std::string_view line);
  void EndMember();

 private:
  void LearnNodeJson(const std::string& text);

  TextRedactor* redactor_;
  std::string artifact_;
  std::string whole_;         // the Node object, read whole (it is small)
  bool first_line_ = false;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_LITERAL_LEARNER_H_
