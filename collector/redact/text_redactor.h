// Redacts one line of text: secrets, user patterns, learned names and the
// address-shaped classes, each original replaced by its pseudonym.
//
// Call order: AddLiteral()/AddKeyword()/AddUserPattern() while learning,
// Seal() once, then RedactLine() any number of times. Replacements never
// contain quotes or backslashes, so JSON and quoted config stay well formed.
//
// What is kept on purpose, because rules need it: timestamps, PCI bus ids,
// device paths, versions, Xid codes, log wording, container ids, boot ids,
// loopback and documentation addresses. GPU UUIDs and serials only go with
// the optional gpu_id class, and then consistently.
#ifndef GPUF_COLLECTOR_REDACT_TEXT_REDACTOR_H_
#define GPUF_COLLECTOR_REDACT_TEXT_REDACTOR_H_

#include <re2/re2.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "collector/redact/pseudonym_map.h"
#include "collector/redact/redact_class.h"

namespace gpuf {

// Replacements per class name ("ipv4" -> 3).
using RedactionCounts = std::map<std::string, int64_t>;

class TextRedactor {
 public:
  // `classes` are the enabled class names; `map` must outlive the redactor.
  TextRedactor(std::set<std::string> classes, PseudonymMap* map);
  ~TextRedactor();

  bool Enabled(std::string_view class_name) const { return classes_.count(std::string(class_name)) > 0; }
  bool secrets_enabled() const { return secrets_on_; }
  const std::set<std::string>& classes() const { return classes_; }

  // A name learned from the evidence (a hostname, a user...). Ignored when
  // its class is off, it is too short, or it is one of the names kept on
  // purpose (localhost, root, kube-system, device-plugin pods...).
  void AddLiteral(Family family, std::string_view original);
  // Pod names matching this RE2 (case-insensitive) are kept: they are how
  // the analyzer finds the device plugin.
  void KeepPodsMatching(const std::string& pattern);
  void AddKeyword(std::string_view word);
  // Matches of `pattern` (its first group when it has one) become keywords.
  void AddUserPattern(std::unique_ptr<RE2> pattern);

  void Seal();

  // One line without its newline. Lines that look like JSON (they start
  // with '{' or '"') are redacted string by string: a replacement never
  // crosses a quote, and escapes ("\n") end words. Field names match no
  // class and stay; keys that are data (addresses, learned names) do not.
  void RedactLine(std::string& line, RedactionCounts& counts);
  // Free text, whatever it looks like (manifest fields).
  void RedactText(std::string& text, RedactionCounts& counts);

 private:
  void RedactSecrets(std::string& text, RedactionCounts& counts);
  void RedactValue(std::string& text, RedactionCounts& counts);
  void RedactJsonLine(std::string& line, RedactionCounts& counts);
  std::string Replace(Family family, std::string_view original, RedactionCounts& counts);

  std::set<std::string> classes_;
  bool secrets_on_, keywords_on_;    // looked up once: every line asks
  std::vector<bool> detector_on_;    // per built-in detector
  PseudonymMap* map_;
  std::map<std::string, Family> literals_ci_;   // canonical (lower case) -> family
  std::map<std::string, Family> literals_cs_;   // exact -> family
  std::unique_ptr<RE2> literal_ci_re_, literal_cs_re_, keep_pods_;
  std::vector<std::unique_ptr<RE2>> user_patterns_;
  bool sealed_ = false;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_TEXT_REDACTOR_H_
