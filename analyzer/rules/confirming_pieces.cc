#include "analyzer/rules/confirming_pieces.h"

#include <string>

#include "analyzer/rules/condition_binding.h"

namespace gpuf {

namespace {

// Whether a selection of the outcome that shows the event itself has rows.
bool EventObserved(const Rule& rule, const Outcome& outcome, const SelectionRows& shown) {
  for (const auto& name : rule.SelectionsOf(outcome)) {
    const Selection* s = rule.FindSelection(name);
    auto it = shown.find(name);
    if (s && s->shows == SelectionKind::kEvent && it != shown.end() && !it->second.empty()) return true;
  }
  return false;
}

std::string Pieces(size_t n) { return std::to_string(n) + (n == 1 ? " confirming piece" : " confirming pieces"); }

}  // namespace

std::vector<Truth> DecidePieces(const Rule& rule, const SelectionRows& shown, const UnknownSelections& unknown) {
  std::vector<Truth> truths;
  for (const auto& piece : rule.confirms) truths.push_back(EvaluateTruth(*piece.condition, shown, unknown));
  return truths;
}

ConfidenceSteps StartingConfidence(const Rule& rule, const Outcome& outcome, const SelectionRows& shown,
                                   const std::vector<Truth>& pieces) {
  if (outcome.confidence) return ConfidenceSteps(*outcome.confidence, "as its outcome says");
  if (!EventObserved(rule, outcome, shown)) {
    return ConfidenceSteps(Confidence::kPossible, "no event of it observed, only what exposes the node to it");
  }
  std::vector<std::string> absent;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i] == Truth::kTrue) continue;
    absent.push_back((pieces[i] == Truth::kUnknown ? "not captured: " : "not observed: ") + rule.confirms[i].text);
  }
  if (absent.empty()) {
    if (pieces.empty()) return ConfidenceSteps(Confidence::kConfirmed, "the event observed");
    return ConfidenceSteps(Confidence::kConfirmed, pieces.size() == 1 ? "its confirming piece observed"
                                                                      : "all " + Pieces(pieces.size()) + " observed");
  }
  if (absent.size() == 1) {
    return ConfidenceSteps(Confidence::kLikely, "1 of " + Pieces(pieces.size()) + " absent (" + absent[0] + ")");
  }
  return ConfidenceSteps(Confidence::kPossible,
                         std::to_string(absent.size()) + " of " + Pieces(pieces.size()) + " absent");
}

}  // namespace gpuf
