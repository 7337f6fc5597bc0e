#include "common/journal_match.h"

#include <algorithm>

#include "common/platforms.h"

namespace gpuf {

namespace {

// journalctl's MESSAGE_ID for a core dump (systemd's catalog).
constexpr std::string_view kCoredumpMessageId = "fc2e22bc6ee647b6b90729ab34a250b1";

// The terms journalctl -u adds for one unit (add_matches_for_unit, systemd 239 and later).
void AddUnitTerms(std::string_view unit, std::vector<JournalTerm>& terms) {
  const std::string u(unit);
  terms.push_back({{"_SYSTEMD_UNIT", u}});
  terms.push_back({{"MESSAGE_ID", std::string(kCoredumpMessageId)}, {"_UID", "0"}, {"COREDUMP_UNIT", u}});
  terms.push_back({{"_PID", "1"}, {"UNIT", u}});
  terms.push_back({{"_UID", "0"}, {"OBJECT_SYSTEMD_UNIT", u}});
}

// "A=1 B=2 + C=3" -> {{A=1, B=2}, {C=3}}.
void AddFieldTerms(std::string_view matches, std::vector<JournalTerm>& terms) {
  JournalTerm term;
  for (std::string_view word : PlatformWords(matches)) {
    if (word == "+") {
      if (!term.empty()) terms.push_back(std::move(term));
      term.clear();
      continue;
    }
    const size_t equals = word.find('=');
    if (equals == std::string::npos) continue;
    term.push_back({std::string(word.substr(0, equals)), std::string(word.substr(equals + 1))});
  }
  if (!term.empty()) terms.push_back(std::move(term));
}

}  // namespace

JournalMatch JournalUnitMatch(std::string_view unit) {
  JournalMatch match;
  AddUnitTerms(unit, match.terms);
  return match;
}

JournalMatch JournalSliceMatch(const JournalSliceRow& slice) {
  JournalMatch match;
  for (std::string_view unit : PlatformWords(slice.units)) AddUnitTerms(unit, match.terms);
  AddFieldTerms(slice.matches, match.terms);
  return match;
}

JournalMatch JournalMatchUnion(std::span<const JournalMatch> matches) {
  JournalMatch all;
  for (const auto& match : matches) {
    for (const auto& term : match.terms) {
      if (std::find(all.terms.begin(), all.terms.end(), term) == all.terms.end()) all.terms.push_back(term);
    }
  }
  return all;
}

std::vector<std::string> JournalMatchArgs(const JournalMatch& match) {
  std::vector<std::string> args;
  for (const auto& term : match.terms) {
    if (!args.empty()) args.push_back("+");
    for (const auto& m : term) args.push_back(m.field + "=" + m.value);
  }
  return args;
}

std::vector<std::string> JournalMatchFields(const JournalMatch& match) {
  std::vector<std::string> fields;
  for (const auto& term : match.terms) {
    for (const auto& m : term) {
      if (std::find(fields.begin(), fields.end(), m.field) == fields.end()) fields.push_back(m.field);
    }
  }
  return fields;
}

bool JournalEntryMatches(const JournalMatch& match, const std::function<std::string_view(std::string_view)>& value_of) {
  for (const auto& term : match.terms) {
    bool all = !term.empty();
    for (const auto& m : term) {
      if (value_of(m.field) != m.value) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

}  // namespace gpuf
