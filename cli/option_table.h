// The options part of --help: each option's flags and value name
// ("-o, --output PATH"), its description in a column beside them, wrapped
// between words. A flag column too wide for the line puts the description
// on the lines below it, as git and systemctl do; a word is never split.
#ifndef GPUF_CLI_OPTION_TABLE_H_
#define GPUF_CLI_OPTION_TABLE_H_

#include <boost/program_options.hpp>
#include <string>

namespace gpuf {

std::string OptionTable(const boost::program_options::options_description& options, int width = 80);

}  // namespace gpuf

#endif  // GPUF_CLI_OPTION_TABLE_H_
