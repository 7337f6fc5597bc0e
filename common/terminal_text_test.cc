#include "common/terminal_text.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("terminal text: what a node wrote cannot drive the terminal") {
  CHECK(TerminalSafe("title \x1b]0;owned\x07 clear \x1b[2J") == "title \\x1B]0;owned\\x07 clear \\x1B[2J");
  CHECK(TerminalSafe("node-\x1b[31mred") == "node-\\x1B[31mred");
  CHECK(TerminalSafe("a\rb\x7f") == "a\\x0Db\\x7F");
  CHECK(TerminalSafe("evil\xE2\x80\xAEtxt.exe") == "evil<U+202E>txt.exe");
  CHECK(TerminalSafe("c1 \xC2\x9B"
                     "2J") == "c1 <U+009B>2J");
}

TEST_CASE("terminal text: lines, tabs, UTF-8 and the bytes around them are kept") {
  CHECK(TerminalSafe("line 1\n\tcaf\xC3\xA9 \xE2\x82\xAC\n") == "line 1\n\tcaf\xC3\xA9 \xE2\x82\xAC\n");
  CHECK(TerminalSafe("gpu-n\xB5"
                     "de") == "gpu-n\\xB5de");
}

TEST_CASE("terminal text: the renderer's own colours pass only when colour is on") {
  const std::string painted = "\x1b[1;31mBROKEN\x1b[0m";
  CHECK(TerminalSafe(painted, RendererColours::kKeep) == painted);
  CHECK(TerminalSafe(painted) == "\\x1B[1;31mBROKEN\\x1B[0m");
  CHECK(TerminalSafe("\x1b[31m", RendererColours::kKeep) == "\\x1B[31m");
}

}  // namespace gpuf
