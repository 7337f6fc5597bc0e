#include "importer/artifact_map.h"

#include <doctest/doctest.h>

#include "common/artifacts.h"
#include "importer/import_plan.h"
#include "importer/input_shapes.h"

namespace gpuf {

TEST_SUITE("artifact_map") {

TEST_CASE("artifact_map: every name the importer writes or cannot show is a row of the artifact table") {
  auto known = [](std::string_view name) { return name.empty() || FindArtifact(name) != nullptr; };
  for (const auto& rule : SosPathRules()) CHECK_MESSAGE(known(rule.name), rule.pattern << ": " << rule.name);
  for (const auto& rule : BugReportSectionRules()) CHECK_MESSAGE(known(rule.name), rule.header_glob << ": " << rule.name);
  for (const auto& shape : InputShapes()) CHECK_MESSAGE(known(shape.artifact), shape.id << ": " << shape.artifact);
  for (std::string_view kind : {"sosreport", "nvidia-bug-report", "must-gather", "evidence-dir"}) {
    CHECK_FALSE(CannotShow(kind).empty());
    for (const auto& name : CannotShow(kind)) CHECK_MESSAGE(known(name), kind << ": " << name);
  }
}

TEST_CASE("StreamForName: the stream of the artifact table, which the loaders read") {
  CHECK(StreamForName("plugin.crictl_logs") == "stdout");
  CHECK(StreamForName("runtime.ctr_container_info") == "stdout");
  CHECK(StreamForName("journal.nvidia_device_plugin") == "stdout");
  CHECK(StreamForName("plugin.devices_list") == "content");
  CHECK(StreamForName("dev.nvidia_nodes") == "content");
}

}  // TEST_SUITE

}  // namespace gpuf
