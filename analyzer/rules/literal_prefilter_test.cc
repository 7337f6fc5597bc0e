#include "analyzer/rules/literal_prefilter.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("rule_prefilter") {

TEST_CASE("DerivePrefilter: the longest required literal, escapes included") {
  CHECK(DerivePrefilter(R"(NVRM: Xid \((?:PCI:)?(?P<bus>[0-9a-f:.]+)\): 79,)") ==
        std::vector<std::string>{"NVRM: Xid ("});
  CHECK(DerivePrefilter(R"(No devices found\. Waiting indefinitely)") ==
        std::vector<std::string>{"No devices found. Waiting indefinitely"});
  CHECK(DerivePrefilter(R"(inotify: \S*kubelet\.sock created, restarting)") ==
        std::vector<std::string>{"kubelet.sock created, restarting"});
}

TEST_CASE("DerivePrefilter: one literal per top-level alternative") {
  CHECK(DerivePrefilter("could not load NVML library|Incompatible (?:platform|strategy) detected") ==
        std::vector<std::string>{"could not load NVML library", "Incompatible "});
}

TEST_CASE("DerivePrefilter: a quantified character is not required") {
  CHECK(DerivePrefilter("unabled? to get device handle") == std::vector<std::string>{" to get device handle"});
  CHECK(DerivePrefilter("Reloading(\\.|\\.\\.\\.)") == std::vector<std::string>{"Reloading"});
  CHECK(DerivePrefilter("abcd+efg") == std::vector<std::string>{"abcd"});
}

TEST_CASE("DerivePrefilter: none when a branch has no literal, or case folds") {
  CHECK(DerivePrefilter("(?i)fallen off the bus").empty());
  CHECK(DerivePrefilter("Xid=\\d+|\\d+ G").empty());
  CHECK(DerivePrefilter("[a-z]+: ").empty());
  CHECK(DerivePrefilter("\\d+ GPUs") == std::vector<std::string>{" GPUs"});
  CHECK(DerivePrefilter("a.b.c").empty());
}

}  // TEST_SUITE

}  // namespace gpuf
