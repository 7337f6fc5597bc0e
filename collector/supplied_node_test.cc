#include "collector/supplied_node.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "common/bundle_layout.h"
#include "common/time_format.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

constexpr char kNode[] =
    R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"gke-ml-cluster-gpu-pool-5f3a9c1e-k8x2"},)"
    R"("status":{"capacity":{"nvidia.com/gpu":"4"},"allocatable":{"nvidia.com/gpu":"0"}}})";

// Runs `read` with stdin on a pipe that holds `text`; the pipe's write end
// stays open (nothing ends it) unless `close_it`.
template <typename Fn>
auto WithStdinPipe(const std::string& text, bool close_it, Fn read) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  if (close_it) close(fds[1]);
  int saved = dup(STDIN_FILENO);
  dup2(fds[0], STDIN_FILENO);
  close(fds[0]);
  auto result = read();
  dup2(saved, STDIN_FILENO);
  close(saved);
  if (!close_it) close(fds[1]);
  return result;
}

}  // namespace

TEST_SUITE("supplied_node") {

TEST_CASE("ParseSuppliedNode: one Node and its name") {
  auto node = ParseSuppliedNode(kNode, "node.json");
  REQUIRE(node.ok());
  CHECK(node->name == "gke-ml-cluster-gpu-pool-5f3a9c1e-k8x2");
  CHECK(node->json == kNode);
  CHECK(node->source == "node.json");
}

TEST_CASE("ParseSuppliedNode: what is not one named Node is refused, saying what it is") {
  CHECK(ParseSuppliedNode("No resources found", "-").status().message() ==
        "--node-object - is not a JSON object");
  CHECK(ParseSuppliedNode(R"({"kind":"NodeList","items":[]})", "a.json").status().message() ==
        "--node-object a.json holds a 'NodeList', not a Node (kubectl get node NAME -o json)");
  CHECK(ParseSuppliedNode(R"({"metadata":{"name":"x"}})", "a.json").status().message() ==
        "--node-object a.json holds no kind, not a Node (kubectl get node NAME -o json)");
  CHECK(ParseSuppliedNode(R"({"kind":"Node","metadata":{"name":""}})", "a.json").status().message() ==
        "--node-object a.json is a Node without metadata.name");
  CHECK(ParseSuppliedNode(R"({"kind":"Node","metadata":[]})", "a.json").status().message() ==
        "--node-object a.json is a Node without metadata.name");
}

TEST_CASE("ReadSuppliedNode: from a file, and not past the size limit") {
  test::TempDir dir;
  test::WriteFile(dir / "node.json", kNode);
  auto node = ReadSuppliedNode(dir / "node.json", 1000);
  REQUIRE(node.ok());
  CHECK(node->name == "gke-ml-cluster-gpu-pool-5f3a9c1e-k8x2");
  CHECK(ReadSuppliedNode(dir / "absent.json", 1000).status().message().rfind(
            "--node-object " + (dir / "absent.json"), 0) == 0);
  test::WriteFile(dir / "big.json", std::string(kMaxNodeObjectBytes + 1, ' '));
  CHECK(ReadSuppliedNode(dir / "big.json", 1000).status().message() ==
        "--node-object " + (dir / "big.json") + " is larger than 16 MiB");
}

TEST_CASE("ReadSuppliedNode: from stdin to its end, and never waiting past the timeout") {
  auto node = WithStdinPipe(kNode, true, [] { return ReadSuppliedNode("-", 5000); });
  REQUIRE(node.ok());
  CHECK(node->source == "-");
  CHECK(node->name == "gke-ml-cluster-gpu-pool-5f3a9c1e-k8x2");
  auto open = WithStdinPipe(kNode, false, [] { return ReadSuppliedNode("-", 200); });
  CHECK(open.status().message() == "--node-object -: stdin did not end within 200 ms");
}

TEST_CASE("SuppliedResults: k8s.node from the cluster, its bytes staged as given") {
  test::TempDir dir;
  auto node = ParseSuppliedNode(kNode, "-");
  REQUIRE(node.ok());
  CHECK(node->parts.empty());
  auto results = SuppliedResults(*node, dir.path());
  REQUIRE(results.ok());
  REQUIRE(results->size() == 1);
  const ManifestArtifact& a = results->front().artifact;
  CHECK(a.name == "k8s.node");
  CHECK(a.kind == "file");
  CHECK(a.path == "-");
  CHECK(a.context == "cluster");
  CHECK(a.status == ProbeStatus::kOk);
  CHECK(a.redactions == 0);
  REQUIRE(a.outputs.size() == 1);
  CHECK(a.outputs[0].stream == kStreamStdout);
  REQUIRE(results->front().staged.size() == 1);
  CHECK(test::ReadFile(results->front().staged[0].staging_path) == kNode);
}

TEST_CASE("ParseSuppliedNode: a List of the Node and its EventList, as the kubectl plugin hands them") {
  const std::string event =
      R"({"kind":"EventList","items":[{"kind":"Event","reason":"Rebooted","type":"Warning",)"
      R"("message":"Node x has been rebooted","involvedObject":{"kind":"Node","name":"x"},)"
      R"("lastTimestamp":"2026-11-18T03:18:07Z"}]})";
  auto node = ParseSuppliedNode(R"({"apiVersion":"v1","kind":"List","items":[)" + std::string(kNode) + "," + event +
                                    "]}",
                                "-");
  REQUIRE(node.ok());
  CHECK(node->name == "gke-ml-cluster-gpu-pool-5f3a9c1e-k8x2");
  CHECK(nlohmann::json::parse(node->json) == nlohmann::json::parse(kNode));
  CHECK(node->Carries("k8s.events"));
  const auto events = nlohmann::json::parse(node->Part("k8s.events"));
  CHECK(events["kind"] == "EventList");
  REQUIRE(events["items"].size() == 1);
  CHECK(events["items"][0]["reason"] == "Rebooted");
  CHECK_FALSE(ParseSuppliedNode(kNode, "-")->Carries("k8s.events"));
  // A List with the Node alone read no events: they stay unknown, not none.
  CHECK_FALSE(ParseSuppliedNode(R"({"kind":"List","items":[)" + std::string(kNode) + "]}", "-")->Carries("k8s.events"));
}

// Each kind the plugin hands over, stored as its artifact, stamped when collect read it.
TEST_CASE("SuppliedResults: every part of the List as its artifact, in the table's order") {
  const std::string metrics =
      R"({"apiVersion":"gpuforensics.io/v1","kind":"MetricsCapture","source":"https://prom:9090","node":"x",)"
      R"("queries":[{"name":"alerts","query":"ALERTS{node=\"x\"}","error":"HTTP 503: unavailable"}]})";
  const std::string pods =
      R"({"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"nvidia-device-plugin-daemonset-7xk2p",)"
      R"("namespace":"gpu-operator"},"status":{"phase":"Running"}}]})";
  const std::string daemonset =
      R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"nvidia-device-plugin-daemonset",)"
      R"("namespace":"gpu-operator","generation":4},"status":{"desiredNumberScheduled":10}})";
  const std::string ns =
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system",)"
      R"("uid":"8f3c2a4e-1b7d-4c9a-9e2f-5d6b7c8a9f01","creationTimestamp":"2026-03-09T07:00:02Z"}})";
  const int64_t before = WallClockNowNs();
  auto node = ParseSuppliedNode(R"({"kind":"List","items":[)" + std::string(kNode) + "," + metrics + "," + ns + "," +
                                    daemonset + "," + pods + "]}",
                                "-");
  REQUIRE(node.ok());
  CHECK_FALSE(node->Carries("k8s.events"));
  CHECK(node->read_at_unix_ns >= before);
  test::TempDir dir;
  auto results = SuppliedResults(*node, dir.path());
  REQUIRE(results.ok());
  std::vector<std::string> names;
  for (const auto& r : *results) {
    names.push_back(r.artifact.name);
    CHECK(r.artifact.context == "cluster");
    // Stamped when collect read it: the plugin's clock in the MetricsCapture is measured against this.
    CHECK(r.artifact.started_at_unix_ns == node->read_at_unix_ns);
  }
  CHECK(names ==
        std::vector<std::string>{"k8s.node", "k8s.node_pods", "k8s.plugin_daemonset", "k8s.metrics", "k8s.cluster"});
  CHECK(nlohmann::json::parse(test::ReadFile((*results)[1].staged[0].staging_path)) == nlohmann::json::parse(pods));
  CHECK(nlohmann::json::parse(test::ReadFile((*results)[3].staged[0].staging_path)) == nlohmann::json::parse(metrics));
  CHECK(
      ParseSuppliedNode(R"({"kind":"List","items":[)" + std::string(kNode) + "," + metrics + "," + metrics + "]}", "-")
          .status()
          .message() == "--node-object - is a List of more than one MetricsCapture");
}

TEST_CASE("ParseSuppliedNode: a document nested past any real object is refused before it is built") {
  const std::string deep = R"({"kind":"List","items":[)" + std::string(kNode) + "," + std::string(200000, '[') +
                           std::string(200000, ']') + "]}";
  CHECK(ParseSuppliedNode(deep, "-").status().message() == "--node-object - is nested deeper than 64 levels");
}

TEST_CASE("ParseSuppliedNode: a List must hold one Node and at most one EventList") {
  CHECK(ParseSuppliedNode(R"({"kind":"List","items":[]})", "-").status().message() ==
        "--node-object - is a List without a Node");
  CHECK(ParseSuppliedNode(R"({"kind":"List"})", "-").status().message() == "--node-object - is a List without items");
  CHECK(ParseSuppliedNode(R"({"kind":"List","items":[)" + std::string(kNode) + "," + kNode + "]}", "-")
            .status()
            .message() == "--node-object - is a List of more than one Node");
  CHECK(ParseSuppliedNode(R"({"kind":"List","items":[{"kind":"Secret"}]})", "-").status().message() ==
        "--node-object - holds a 'Secret' in its List: only a Node, an EventList, a PodList, a DaemonSet, a "
        "MetricsCapture and a Namespace are taken");
  CHECK(ParseSuppliedNode(R"({"kind":"List","items":[{"kind":"Event"}]})", "-").status().message() ==
        "--node-object - holds a 'Event' in its List: only a Node, an EventList, a PodList, a DaemonSet, a "
        "MetricsCapture and a Namespace are taken");
}

}  // TEST_SUITE

}  // namespace gpuf
