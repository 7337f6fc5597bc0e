// The words a rule uses to say how its evidence and its finding fit a
// diagnosis, each written once here: what a selection shows (event,
// precondition, context), the part a finding plays for its symptom (cause,
// trigger, amplifier, consequence), what evidence against does (rule-out,
// lower), the symptoms findings are grouped by, and the confidence ladder.
// Rule files, the engine, the report and `rules lint` all go through these
// tables, so a misspelt word fails where it is read.
//
// Parse() returns nullopt for a word not in the table; Name() is its
// inverse.
#ifndef GPUF_ANALYZER_RULES_DIAGNOSIS_VOCAB_H_
#define GPUF_ANALYZER_RULES_DIAGNOSIS_VOCAB_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// What a selection's rows show. Only an event shows that the issue
// happened; a precondition shows that the node is exposed to it (legacy
// injection, a setting, a version); context frames the others (the host's
// own nvidia-smi works, the timeline was built).
enum class SelectionKind { kEvent, kPrecondition, kContext };
const char* Name(SelectionKind kind);
std::optional<SelectionKind> ParseSelectionKind(std::string_view word);

// The part a rule's finding plays for its symptom: the cause, what set it
// off, what made it worse or hid it (failOnInitError=false), or what
// follows from a cause another rule names.
enum class Role { kCause, kTrigger, kAmplifier, kConsequence };
const char* Name(Role role);
std::optional<Role> ParseRole(std::string_view word);

// What a piece of evidence against does when it holds.
enum class AgainstEffect { kRuleOut, kLower };
const char* Name(AgainstEffect effect);  // "rule-out" | "lower"
std::optional<AgainstEffect> ParseAgainstEffect(std::string_view word);

// What a check of evidence against found: it held, it was looked for and
// not seen, or what it reads was not captured.
enum class CheckState { kHeld, kNotSeen, kUnknown };
const char* Name(CheckState state);  // "held" | "not_seen" | "unknown"

struct Symptom {
  const char* id;           // "gpus-unusable"
  const char* description;  // one line for the report
};
// Every symptom a rule may name, in the order reports list them at equal rank.
const std::vector<Symptom>& Symptoms();
const Symptom* FindSymptom(std::string_view id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_DIAGNOSIS_VOCAB_H_
