// A finding's first confidence word, computed from the evidence
// (docs/diagnosis.md section 2): the rule lists the pieces of what the
// catalog calls CONFIRMS (`confirms`), and each is decided over the rows
// the outcome bound, so a piece about "the same GPU" is about the GPU of
// the bound Xid, not any GPU of the bundle.
//
//   no event of the outcome observed     possible (preconditions, context)
//   every piece holds                    confirmed
//   one piece false or not captured      likely
//   two or more                          possible
//
// Caps (provenance, permanent records) and evidence against follow it
// (rule_eval.cc). A rule written before confidence was computed states the
// word on its outcome; it stands as written.
#ifndef GPUF_ANALYZER_RULES_CONFIRMING_PIECES_H_
#define GPUF_ANALYZER_RULES_CONFIRMING_PIECES_H_

#include <vector>

#include "analyzer/rules/condition.h"
#include "analyzer/rules/confidence_steps.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

// Each of the rule's confirming pieces, in order, decided over `shown`.
std::vector<Truth> DecidePieces(const Rule& rule, const SelectionRows& shown, const UnknownSelections& unknown);

// The word the outcome starts from: its literal, else computed from
// `pieces` (DecidePieces) and whether an event selection of the outcome
// has rows in `shown`.
ConfidenceSteps StartingConfidence(const Rule& rule, const Outcome& outcome, const SelectionRows& shown,
                                   const std::vector<Truth>& pieces);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_CONFIRMING_PIECES_H_
