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
  // Sequences are indented under their key, as yaml-cpp writes them.
  CHECK(YamlText(doc) ==
        "kind: Pod\n"
        "metadata:\n"
        "  labels:\n"
        "    app.kubernetes.io/name: x\n"
        "    gpuforensics.io/run: \"0a1b2c3d\"\n"
        "spec:\n"
        "  activeDeadlineSeconds: 360\n"
        "  containers:\n"
        "    - command:\n"
        "        - sleep\n"
        "        - \"360\"\n"
        "      env: []\n"
        "      name: collect\n"
        "      resources:\n"
        "        requests:\n"
        "          cpu: \"100m\"\n"
        "  hostPID: true\n"
        "  nested:\n"
        "    -\n"
        "      - 1\n"
        "      - 2\n"
        "  nothing: {}\n"
        "  tolerations:\n"
        "    - operator: Exists\n"
        "  words:\n"
        "    - \"yes\"\n"
        "    - \"no\"\n"
        "    - \"\"\n"
        "    - \"--root\"\n"
        "    - \"a b\"\n"
        "    - /host\n"
        "    - \"on\"\n");
}

TEST_CASE("YamlText: JSON's own number text, null, quoted keys, text beyond ASCII and bytes that are not UTF-8") {
  nlohmann::json doc = {{"ratio", 0.1}, {"big", 18446744073709551615u}, {"none", nullptr}, {"true", -1},
                        {"name", "caf\xc3\xa9 \"x\""}, {"bytes", "node\xff"}};
  CHECK(YamlText(doc) ==
        "big: 18446744073709551615\n"
        "bytes: \"node\xef\xbf\xbd\"\n"
        "name: \"caf\xc3\xa9 \\\"x\\\"\"\n"
        "none: null\n"
        "ratio: 0.1\n"
        "\"true\": -1\n");
  CHECK(YamlText(nlohmann::json::object()) == "{}\n");
  CHECK(YamlText(nlohmann::json::array()) == "[]\n");
  CHECK(YamlText("360") == "\"360\"\n");
}

}  // TEST_SUITE

}  // namespace gpuf
