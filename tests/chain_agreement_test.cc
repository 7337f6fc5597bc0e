// One answer to "is the chain broken": on every sample bundle and on the
// scenario kit's fake node it was collected from, the collector's summary
// (TriageFacts over the bundle's members, as collect computed it from the
// same bytes), `watch`'s check of the fake host and `analyze`'s chain
// verdict judge each step alike. A reader that cannot see a step says
// unknown there; two readers that see it never say ok and failed.
#include <doctest/doctest.h>
#include <re2/re2.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <sstream>

#include "analyzer/analysis.h"
#include "analyzer/timeline/chain_verdict.h"
#include "collector/host_root.h"
#include "collector/triage.h"
#include "collector/watch_check.h"
#include "common/bundle_layout.h"
#include "common/bundle_reader.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// Every member of a bundle, by artifact and stream.
class Members : public BundleVisitor {
 public:
  Status OnManifest(const Manifest& m) override {
    manifest_ = m;
    return Status::Ok();
  }
  void OnMember(const ManifestArtifact& a, const ManifestOutput& o, std::string bytes, bool) override {
    bytes_[{a.name, a.instance, o.stream}] = std::move(bytes);
  }

  // The probes as collect held them: each artifact with its staged streams.
  std::vector<ProbeResult> Results() const {
    std::vector<ProbeResult> results;
    for (const auto& a : manifest_.artifacts) results.push_back(ProbeResult{a, {}});
    return results;
  }
  std::string Read(const ProbeResult& r, std::string_view stream) const {
    auto it = bytes_.find({r.artifact.name, r.artifact.instance, std::string(stream)});
    return it == bytes_.end() ? "" : it->second;
  }
  const Manifest& manifest() const { return manifest_; }

 private:
  Manifest manifest_;
  std::map<std::tuple<std::string, std::string, std::string>, std::string> bytes_;
};

std::unique_ptr<re2::RE2> PluginPattern(const std::string& pattern) {
  re2::RE2::Options options;
  options.set_case_sensitive(false);
  return std::make_unique<re2::RE2>(pattern, options);
}

std::string Table(const std::vector<std::vector<ChainStep>>& readers) {
  std::ostringstream out;
  for (size_t i = 0; i < readers[0].size(); ++i) {
    out << "\n  " << readers[0][i].name << ":";
    for (const auto& steps : readers) out << " " << Word(steps[i].status);
  }
  return out.str();
}

}  // namespace

TEST_SUITE("chain_agreement") {

TEST_CASE("chain: collect's summary, watch and analyze judge every sample's chain alike, step by step") {
  test::TempDir hosts;
  int scenarios = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("samples/scenarios"))) {
    const std::string name = entry.path().filename().string();
    const std::string bundle = test::SourcePath("samples/" + name + ".tar.zst");
    if (!std::filesystem::exists(bundle)) continue;
    CAPTURE(name);
    ++scenarios;

    // analyze
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = PrepareBundle(bundle, *db);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    auto analyzed = ComputeChainVerdict(*db, loaded->bundle_id);
    REQUIRE(analyzed.ok());

    // collect's summary, from the very bytes it staged
    Members members;
    std::vector<IntegrityIssue> issues;
    REQUIRE(ReadBundle(bundle, BundleLimits{}, members, issues).ok());
    auto pattern = PluginPattern(members.manifest().plugin_pattern);
    std::vector<ChainStep> triaged = JudgeChain(TriageFacts(
        members.Results(), [&](const ProbeResult& r, std::string_view s) { return members.Read(r, s); }, *pattern));

    // watch, on the fake host the bundle was collected from
    const std::string host = hosts / name;
    auto built = test::RunProcess({"/usr/bin/python3", test::SourcePath("samples/tools/build_fakehost.py"), entry.path().string(),
                            host});
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    auto root = HostRoot::Open(host + "/root");
    REQUIRE(root.ok());
    ChainCheck watched = CheckChain(*root, *pattern);
    std::vector<ChainStep> watch_steps = watched.steps.empty() ? JudgeChain(ChainFacts{}) : watched.steps;

    std::vector<std::vector<ChainStep>> readers = {*analyzed, triaged, watch_steps};
    INFO("analyze, collect, watch:" << Table(readers));
    for (size_t i = 0; i < analyzed->size(); ++i) {
      std::set<StepStatus> known;
      for (const auto& steps : readers) {
        REQUIRE(steps[i].id == (*analyzed)[i].id);
        if (steps[i].status != StepStatus::kUnknown) known.insert(steps[i].status);
      }
      CHECK_MESSAGE(known.size() <= 1, (*analyzed)[i].name);
    }
    // collect read the very bytes analyze loaded: it judges every step alike.
    for (size_t i = 0; i < analyzed->size(); ++i) {
      CHECK_MESSAGE(triaged[i].status == (*analyzed)[i].status, (*analyzed)[i].name);
    }
    // watch never runs NVML, asks no runtime and no API server; what it
    // reads of the host it always reads.
    for (auto id : {ChainStepId::kPci, ChainStepId::kDriver, ChainStepId::kDeviceNodes, ChainStepId::kKubelet}) {
      CHECK_MESSAGE(watch_steps[static_cast<size_t>(id)].status != StepStatus::kUnknown,
                    watch_steps[static_cast<size_t>(id)].name);
    }
  }
  CHECK(scenarios >= 13);
}

}  // TEST_SUITE

}  // namespace gpuf
