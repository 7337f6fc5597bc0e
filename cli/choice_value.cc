#include "cli/choice_value.h"

#include <algorithm>

namespace gpuf {

namespace {

class ChoiceValue : public po::typed_value<std::string> {
 public:
  explicit ChoiceValue(std::vector<std::string> choices)
      : po::typed_value<std::string>(nullptr), choices_(std::move(choices)) {}

  // Boost names the option in the message: it fills %canonical_option% as
  // the user spelled the flag.
  void xparse(boost::any& value_store, const std::vector<std::string>& tokens) const override {
    for (const auto& token : tokens) {
      if (std::find(choices_.begin(), choices_.end(), token) == choices_.end()) {
        throw po::error_with_option_name("%canonical_option% must be " + ChoiceList(choices_));
      }
    }
    po::typed_value<std::string>::xparse(value_store, tokens);
  }

  const std::vector<std::string>& choices() const { return choices_; }

 private:
  std::vector<std::string> choices_;
};

}  // namespace

po::typed_value<std::string>* ChoiceOf(std::vector<std::string> choices) { return new ChoiceValue(std::move(choices)); }

std::vector<std::string> ChoicesOf(const po::option_description& option) {
  const auto* choice = dynamic_cast<const ChoiceValue*>(option.semantic().get());
  return choice ? choice->choices() : std::vector<std::string>{};
}

std::string ChoiceList(const std::vector<std::string>& choices) {
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i) list += i + 1 == choices.size() ? " or " : ", ";
    list += choices[i];
  }
  return list;
}

}  // namespace gpuf
