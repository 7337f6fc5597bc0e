#include "cli/option_table.h"

#include <doctest/doctest.h>

#include <sstream>

namespace gpuf {

namespace po = boost::program_options;

TEST_CASE("The option table names short and long flags and the value, and lines descriptions up") {
  po::options_description options("test");
  options.add_options()("output,o", po::value<std::string>()->value_name("PATH"), "the file written")(
      "no-pager", "print instead of paging");
  CHECK(OptionTable(options) ==
        "  -o, --output PATH  the file written\n"
        "  --no-pager         print instead of paging\n");
}

TEST_CASE("The option table wraps descriptions between words, never inside one") {
  po::options_description options("test");
  options.add_options()("image", po::value<std::string>()->value_name("IMAGE"),
                        "the collector image (deploy/Containerfile; scripts/release pins it by digest)");
  const std::string table = OptionTable(options, 50);
  CHECK(table.find("deploy/Containerfile;") != std::string::npos);
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 50);
}

TEST_CASE("A flag too wide for the column puts its description on the lines below") {
  po::options_description options("test");
  options.add_options()("db", po::value<std::string>()->value_name("FILE"), "keep the database")(
      "dry-run", po::value<std::string>()->value_name("STRATEGY")->implicit_value("client"),
      "print the pods that would run");
  const std::string table = OptionTable(options);
  CHECK(table.find("  --db FILE  keep the database\n") != std::string::npos);
  CHECK(table.find("  --dry-run[=STRATEGY(=client)]\n             print the pods that would run\n") !=
        std::string::npos);
}

}  // namespace gpuf
