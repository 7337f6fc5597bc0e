// How a finding's confidence came to be (docs/diagnosis.md section 2): the
// word its confirming pieces give first, then each cap and each held check
// against, in order. Every change is a step the report shows, so a reader
// sees in one line why a finding is "likely" and not "confirmed".
//   confirmed: all 2 confirming pieces observed; likely: the lines it rests
//   on come from outputs whose origin is not known; possible: held against:
//   nvidia-smi works inside the container
#ifndef GPUF_ANALYZER_RULES_CONFIDENCE_STEPS_H_
#define GPUF_ANALYZER_RULES_CONFIDENCE_STEPS_H_

#include <string>
#include <vector>

#include "common/vocabulary.h"

namespace gpuf {

class ConfidenceSteps {
 public:
  // `why`: how the first word came to be ("all 2 confirming pieces observed").
  ConfidenceSteps(Confidence start, const std::string& why);

  // At most `ceiling`, because of `why`; a finding already at or below it
  // keeps its confidence and records nothing.
  void Cap(Confidence ceiling, const std::string& why);

  // A held check against with effect `lower`: one step down. A second held
  // one, or one on a finding that is only possible, rules it out.
  void Lower(const std::string& why);

  // A held check against with effect `rule-out`.
  void RuleOut(const std::string& why);

  Confidence value() const { return value_; }
  bool ruled_out() const { return ruled_out_; }
  const std::vector<std::string>& steps() const { return steps_; }

  // The steps as one line: "confirmed: ...; likely: ...".
  std::string Line() const;

 private:
  Confidence value_;
  bool ruled_out_ = false;
  int lowers_ = 0;
  std::vector<std::string> steps_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_CONFIDENCE_STEPS_H_
