#include "analyzer/rules/differential.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analyzer/rules/diagnosis_vocab.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// Higher is more severe, higher is surer: the word lists run the other way.
int Rank(Severity severity) { return static_cast<int>(Names<Severity>().size()) - static_cast<int>(severity); }
int Rank(Confidence confidence) { return static_cast<int>(Names<Confidence>().size()) - static_cast<int>(confidence); }

// What cannot be told apart: admissibility, confidence, confirming share
// (as a fraction compared by cross-multiplication).
struct Key {
  int admissible;
  int confidence;
  int held;
  int total;
  int severity;

  bool SameEvidence(const Key& o) const {
    return admissible == o.admissible && confidence == o.confidence && held * o.total == o.held * total;
  }
  // Better first.
  bool Before(const Key& o) const {
    if (admissible != o.admissible) return admissible > o.admissible;
    if (confidence != o.confidence) return confidence > o.confidence;
    if (held * o.total != o.held * total) return held * o.total > o.held * total;
    return severity > o.severity;
  }
};

Key KeyOf(const Finding& f) {
  int total = f.confirming_total == 0 ? 1 : f.confirming_total;
  int held = f.confirming_total == 0 ? 1 : f.confirming_held;
  return {f.admissible ? (*f.admissible ? 2 : 0) : 1, Rank(f.confidence), held, total, Rank(f.severity)};
}

bool IsCause(const Finding& f) { return f.role == Name(Role::kCause); }

// Evidence first; where it cannot tell two apart, a cause before what it
// sets off, so the first names what to fix.
std::vector<const Finding*> Ranked(std::vector<const Finding*> list) {
  std::stable_sort(list.begin(), list.end(), [](const Finding* a, const Finding* b) {
    Key ka = KeyOf(*a), kb = KeyOf(*b);
    if (ka.Before(kb)) return true;
    if (kb.Before(ka)) return false;
    if (IsCause(*a) != IsCause(*b)) return IsCause(*a);
    return a->rule_id < b->rule_id;
  });
  return list;
}

std::vector<DiagnosisEntry> Group(const std::vector<const Finding*>& ranked) {
  std::vector<DiagnosisEntry> out;
  const Finding* leader = nullptr;
  for (const Finding* f : ranked) {
    if (IsCause(*f)) {
      leader = f;
      break;
    }
  }
  const bool has_cause = leader != nullptr;
  if (!leader) leader = ranked.front();
  out.push_back({leader->rule_id, leader->symptom, leader->role, has_cause ? "root_cause" : "lead", 0, 1, ""});
  for (const Finding* f : ranked) {
    if (f == leader) continue;
    std::string place = f->role;
    if (IsCause(*f)) place = KeyOf(*f).SameEvidence(KeyOf(*leader)) ? "competing" : "alternative";
    out.push_back({f->rule_id, f->symptom, f->role, place, 0, 0, leader->rule_id});
  }
  // Under the leader: competing causes, other causes, then what set it off,
  // made it worse and followed from it; in rank order within each.
  auto order = [](const std::string& place) {
    static const char* kOrder[] = {"competing", "alternative", "trigger", "amplifier", "consequence"};
    for (int i = 0; i < 5; ++i) {
      if (place == kOrder[i]) return i;
    }
    return 5;
  };
  std::stable_sort(out.begin() + 1, out.end(),
                   [&](const DiagnosisEntry& a, const DiagnosisEntry& b) { return order(a.place) < order(b.place); });
  for (size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

// The first check of a competitor that was not captured, preferring one
// that would rule it out: capturing it decides between them.
std::string Decider(const std::vector<const Finding*>& competitors) {
  for (AgainstEffect wanted : {AgainstEffect::kRuleOut, AgainstEffect::kLower}) {
    for (const Finding* f : competitors) {
      for (const auto& a : f->against) {
        if (a.state != Name(CheckState::kUnknown) || a.effect != Name(wanted) || a.needs.empty()) continue;
        std::string needs;
        for (const auto& n : a.needs) needs += (needs.empty() ? "" : ", ") + n;
        return "capture " + needs + ": " + a.text + (wanted == AgainstEffect::kRuleOut ? " rules out " : " weakens ") +
               f->rule_id;
      }
    }
  }
  for (const Finding* f : competitors) {
    for (const auto& m : f->missing_evidence) {
      const std::string prefix = "not available: ";
      if (m.rfind(prefix, 0) == 0) return "capture " + m.substr(prefix.size()) + ": it would confirm or weaken " + f->rule_id;
    }
  }
  return "";
}

}  // namespace

const DiagnosisEntry* Diagnosis::Leader() const {
  for (const auto& e : entries) {
    if (e.group == 1 && e.rank == 1) return &e;
  }
  return nullptr;
}

const DiagnosisEntry* Diagnosis::Find(const std::string& rule_id) const {
  for (const auto& e : entries) {
    if (e.rule_id == rule_id) return &e;
  }
  return nullptr;
}

Diagnosis Diagnose(const std::vector<Finding>& findings, const std::vector<Finding>& ruled_out) {
  std::map<std::string, std::vector<const Finding*>> by_symptom;
  std::vector<const Finding*> history;
  for (const auto& f : findings) {
    if (f.tense == Tense::kHistory) {
      history.push_back(&f);
    } else {
      by_symptom[f.symptom].push_back(&f);
    }
  }
  std::vector<std::vector<DiagnosisEntry>> groups;
  std::vector<const Finding*> leaders;
  std::map<std::string, const Finding*> by_id;
  for (const auto& f : findings) by_id[f.rule_id] = &f;
  for (auto& [symptom, list] : by_symptom) {
    groups.push_back(Group(Ranked(list)));
    leaders.push_back(by_id[groups.back().front().rule_id]);
  }
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    Key ka = KeyOf(*leaders[a]), kb = KeyOf(*leaders[b]);
    if (ka.Before(kb)) return true;
    if (kb.Before(ka)) return false;
    return leaders[a]->rule_id < leaders[b]->rule_id;
  });
  Diagnosis d;
  int group_number = 0;
  for (size_t i : order) {
    ++group_number;
    for (auto& e : groups[i]) {
      e.group = group_number;
      d.entries.push_back(e);
    }
  }
  if (!d.entries.empty()) {
    std::vector<const Finding*> competitors = {by_id[d.entries.front().rule_id]};
    for (const auto& e : d.entries) {
      if (e.group == 1 && e.place == "competing") competitors.push_back(by_id[e.rule_id]);
    }
    if (competitors.size() > 1) d.decider = Decider(competitors);
  }
  int rank = 0;
  for (const Finding* f : Ranked(history)) d.entries.push_back({f->rule_id, f->symptom, f->role, "history", 0, ++rank, ""});
  rank = 0;
  std::vector<const Finding*> excluded;
  for (const auto& f : ruled_out) excluded.push_back(&f);
  for (const Finding* f : Ranked(excluded)) {
    d.entries.push_back({f->rule_id, f->symptom, f->role, "ruled_out", 0, ++rank, ""});
  }
  return d;
}

}  // namespace gpuf
