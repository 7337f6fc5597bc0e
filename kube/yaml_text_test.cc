#include "kube/yaml_text.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("yaml_text") {

TEST_CASE("YamlText: nested objects, sequences of objects and scalars, quoting where YAML would misread") {
  auto doc = nlohmann::json::parse(R"({
    "kind": "Pod",
    "metadata": {"labels": {"app.kubernetes.io/name": "x", "gpuforensics.io/run": "0a1b2c3d"}},
    "spec": {
      "containers": [{"name": "collect", "command": ["sleep", "360"], "env": [],
                      "resources": {"requests": {"cpu": "100m"}}}],
      "hostPID": true, "activeDeadlineSeconds": 360, "tolerations": [{"operator": "Exists"}],
      "words": ["yes", "no", "", "--root", "a b", "/host", "on"], "nothing": {}, "nested": [[1, 2]]}})");
  CHECK(YamlText(doc) ==
        "kind: Pod\n"
        "metadata:\n"
        "  labels:\n"
        "    app.kubernetes.io/name: x\n"
        "    gpuforensics.io/run: \"0a1b2c3d\"\n"
        "spec:\n"
        "  activeDeadlineSeconds: 360\n"
        "  containers:\n"
        "  - command:\n"
        "    - sleep\n"
        "    - \"360\"\n"
        "    env: []\n"
        "    name: collect\n"
        "    resources:\n"
        "      requests:\n"
        "        cpu: \"100m\"\n"
        "  hostPID: true\n"
        "  nested:\n"
        "  -\n"
        "    - 1\n"
        "    - 2\n"
        "  nothing: {}\n"
        "  tolerations:\n"
        "  - operator: Exists\n"
        "  words:\n"
        "  - \"yes\"\n"
        "  - \"no\"\n"
        "  - \"\"\n"
        "  - \"--root\"\n"
        "  - \"a b\"\n"
        "  - /host\n"
        "  - \"on\"\n");
}

}  // TEST_SUITE

}  // namespace gpuf
