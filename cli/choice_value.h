// An option whose value is one of a few fixed words (--format text|json):
// the words are declared once, with the option. The parser refuses any
// other value ("--format must be text, json or csv"), and the completion
// scripts offer the words after the flag.
#ifndef GPUF_CLI_CHOICE_VALUE_H_
#define GPUF_CLI_CHOICE_VALUE_H_

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace gpuf {

namespace po = boost::program_options;

// A string option that takes only one of `choices`; chain value_name and
// default_value on it as on po::value<std::string>().
po::typed_value<std::string>* ChoiceOf(std::vector<std::string> choices);

// The words of an option declared with ChoiceOf; empty for any other option.
std::vector<std::string> ChoicesOf(const po::option_description& option);

// "text, json or csv".
std::string ChoiceList(const std::vector<std::string>& choices);

}  // namespace gpuf

#endif  // GPUF_CLI_CHOICE_VALUE_H_
