#include "analyzer/rules/diagnosis_vocab.h"

#include <iterator>

#include "common/vocabulary.h"

namespace gpuf {

namespace {

template <typename E, size_t N>
const char* NameIn(const std::pair<E, const char*> (&table)[N], E value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "";
}

template <typename E, size_t N>
std::optional<E> ParseIn(const std::pair<E, const char*> (&table)[N], std::string_view word) {
  for (const auto& [e, name] : table) {
    if (word == name) return e;
  }
  return std::nullopt;
}

constexpr std::pair<SelectionKind, const char*> kKinds[] = {
    {SelectionKind::kEvent, "event"},
    {SelectionKind::kPrecondition, "precondition"},
    {SelectionKind::kContext, "context"},
};

constexpr std::pair<Role, const char*> kRoles[] = {
    {Role::kCause, "cause"},
    {Role::kTrigger, "trigger"},
    {Role::kAmplifier, "amplifier"},
    {Role::kConsequence, "consequence"},
};

constexpr std::pair<AgainstEffect, const char*> kEffects[] = {
    {AgainstEffect::kRuleOut, "rule-out"},
    {AgainstEffect::kLower, "lower"},
};

constexpr std::pair<CheckState, const char*> kStates[] = {
    {CheckState::kHeld, "held"},
    {CheckState::kNotSeen, "not_seen"},
    {CheckState::kUnknown, "unknown"},
};

}  // namespace

const char* Name(SelectionKind kind) { return NameIn(kKinds, kind); }
std::optional<SelectionKind> ParseSelectionKind(std::string_view word) { return ParseIn(kKinds, word); }
const char* Name(Role role) { return NameIn(kRoles, role); }
std::optional<Role> ParseRole(std::string_view word) { return ParseIn(kRoles, word); }
const char* Name(AgainstEffect effect) { return NameIn(kEffects, effect); }
std::optional<AgainstEffect> ParseAgainstEffect(std::string_view word) { return ParseIn(kEffects, word); }
const char* Name(CheckState state) { return NameIn(kStates, state); }

const std::vector<Symptom>& Symptoms() {
  static const std::vector<Symptom> kSymptoms = {
      {"gpus-unusable",
       "the GPUs the host sees do not reach Kubernetes workloads: not advertised, marked unhealthy, or failing "
       "inside containers"},
      {"gpu-fault", "a GPU reported a hardware or firmware fault, or is missing from NVML"},
      {"exposure", "nothing is failing because of it now, but the node is exposed to a known issue"},
  };
  return kSymptoms;
}

const Symptom* FindSymptom(std::string_view id) {
  for (const auto& s : Symptoms()) {
    if (id == s.id) return &s;
  }
  return nullptr;
}

}  // namespace gpuf
