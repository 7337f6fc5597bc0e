#include "analyzer/render/render_diff.h"

#include <doctest/doctest.h>

#include "analyzer/diff/bundle_diff.h"

#include <nlohmann/json.hpp>

namespace gpuf {

namespace {

BundleSnapshot Snapshot(const std::string& name, int64_t collected_at_ns) {
  BundleSnapshot s;
  s.path = name + ".tar.zst";
  s.machine_id = "machine-" + name;
  s.collected_at_ns = collected_at_ns;
  return s;
}

BundleDiff TwoNodes() {
  BundleSnapshot a = Snapshot("a", 1795008600000000000);
  BundleSnapshot b = Snapshot("b", 1795009200000000000);
  a.facts = {{"plugin_config", "deviceListStrategy", FactKind::kText, "[\"envvar\"|\"volume\"]"},
             {"gpu_counts", "Node allocatable", FactKind::kCount, "1k"},
             {"sockets", "kubelet.sock", FactKind::kTime, "1794971887516660000"},
             {"versions", "runc", FactKind::kText, "1.1.13"}};
  b.facts = {{"gpu_counts", "Node allocatable", FactKind::kCount, "8"},
             {"versions", "runc", FactKind::kText, "1.1.13"}};
  return CompareSnapshots(a, b);
}

}  // namespace

TEST_SUITE("render_diff") {

TEST_CASE("RenderDiffText: differing facts with A and B, the same ones counted, absent said") {
  std::string text = RenderDiffText(TwoNodes(), {});
  CHECK(text.find("Nodes: different nodes (machine-id differs)\n3 facts differ, 1 the same\n") != std::string::npos);
  CHECK(text.find("  * Node allocatable        1k      8\n") != std::string::npos);
  CHECK(text.find("Device-plugin directory (mtimes)  A                         B\n"
                  "  * kubelet.sock                  2026-11-18T03:18:07.516Z  absent\n") != std::string::npos);
  CHECK(text.find("Component versions: all 1 the same\n") != std::string::npos);
  CHECK(text.back() == '\n');
}

TEST_CASE("RenderDiffText: --all marks the same facts, --tz moves the times") {
  DiffRenderOptions options;
  options.show_all = true;
  options.zone = *DisplayZone::Parse("+08:00", "");
  std::string text = RenderDiffText(TwoNodes(), options);
  CHECK(text.find("  = runc ") != std::string::npos);
  CHECK(text.find("2026-11-18T11:18:07.516+08:00") != std::string::npos);
}

TEST_CASE("RenderDiffMarkdown: a pipe in a value cannot break the table") {
  std::string md = RenderDiffMarkdown(TwoNodes(), {});
  CHECK(md.find("| deviceListStrategy | [\"envvar\"\\|\"volume\"] | absent |\n") != std::string::npos);
  CHECK(md.find("Not applicable: different nodes (machine-id differs).") != std::string::npos);
}

TEST_CASE("RenderDiffJson: counts are numbers unless they do not parse, times RFC 3339 UTC") {
  auto doc = nlohmann::json::parse(RenderDiffJson(TwoNodes()));
  CHECK(doc["format"] == "gpuforensics-diff");
  CHECK(doc["recovery"].is_null());
  for (const auto& s : doc["sections"]) {
    for (const auto& f : s["facts"]) {
      if (f["name"] == "Node allocatable") {
        CHECK(f["a"] == "1k");
        CHECK(f["b"] == 8);
      }
      if (f["name"] == "kubelet.sock") {
        CHECK(f["a"] == "2026-11-18T03:18:07.516660000Z");
        CHECK(f["b"].is_null());
      }
    }
  }
}

}  // TEST_SUITE

}  // namespace gpuf
