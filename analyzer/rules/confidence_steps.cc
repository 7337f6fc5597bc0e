#include "analyzer/rules/confidence_steps.h"

#include "common/text_lines.h"

namespace gpuf {

ConfidenceSteps::ConfidenceSteps(Confidence start, const std::string& why) : value_(start) {
  steps_.push_back(Word(start) + ": " + why);
}

void ConfidenceSteps::Cap(Confidence ceiling, const std::string& why) {
  if (ruled_out_ || !SurerThan(value_, ceiling)) return;
  value_ = ceiling;
  steps_.push_back(Word(ceiling) + ": " + why);
}

void ConfidenceSteps::Lower(const std::string& why) {
  if (ruled_out_) return;
  ++lowers_;
  if (lowers_ >= 2) {
    RuleOut("a second check against held: " + why);
  } else if (value_ == Confidence::kPossible) {
    RuleOut("held against a finding that was only possible: " + why);
  } else {
    value_ = Lowered(value_);
    steps_.push_back(Word(value_) + ": held against: " + why);
  }
}

void ConfidenceSteps::RuleOut(const std::string& why) {
  if (ruled_out_) return;
  ruled_out_ = true;
  steps_.push_back("ruled out: " + why);
}

std::string ConfidenceSteps::Line() const { return Join(steps_, "; "); }

}  // namespace gpuf
