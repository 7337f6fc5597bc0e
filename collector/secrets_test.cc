#include "collector/secrets.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace gpuf {

TEST_SUITE("secrets") {

TEST_CASE("IsForbiddenHostPath: credentials are never read") {
  CHECK(IsForbiddenHostPath("/var/lib/kubelet/pki/kubelet-client-current.pem"));
  CHECK(IsForbiddenHostPath("/etc/kubernetes/kubelet.conf"));
  CHECK(IsForbiddenHostPath("/etc/kubernetes/admin.conf"));
  CHECK(IsForbiddenHostPath("/var/run/secrets/kubernetes.io/serviceaccount/token"));
  CHECK(IsForbiddenHostPath("/var/lib/kubelet/pods/1234/volumes/kubernetes.io~secret/x/token"));
  CHECK_FALSE(IsForbiddenHostPath("/etc/kubernetes/manifests/nvidia-device-plugin.yaml"));
  CHECK_FALSE(IsForbiddenHostPath("/var/lib/kubelet/config.yaml"));
  CHECK_FALSE(IsForbiddenHostPath("/proc/driver/nvidia/version"));
}

TEST_CASE("IsEvidenceEnvName: GPU configuration stays, anything secret-named goes") {
  CHECK(IsEvidenceEnvName("NVIDIA_VISIBLE_DEVICES"));
  CHECK(IsEvidenceEnvName("FAIL_ON_INIT_ERROR"));
  CHECK(IsEvidenceEnvName("MIG_STRATEGY"));
  CHECK_FALSE(IsEvidenceEnvName("AWS_SECRET_ACCESS_KEY"));
  CHECK_FALSE(IsEvidenceEnvName("NVIDIA_API_TOKEN"));
  CHECK_FALSE(IsEvidenceEnvName("DATABASE_URL"));
}

TEST_CASE("ScrubText: key values, bearer tokens, JWTs and private keys") {
  SUBCASE("TOML registry auth") {
    std::string text = "[plugins.\"io.containerd.grpc.v1.cri\".registry.configs.\"r\".auth]\n"
                       "  username = \"robot\"\n  password = \"hunter2\"\n  auth = \"cm9ib3Q6aHVudGVyMg==\"\n";
    CHECK(ScrubText(text) == 2);
    CHECK(text.find("hunter2") == std::string::npos);
    CHECK(text.find("cm9ib3Q6") == std::string::npos);
    CHECK(text.find("password = \"<redacted>\"") != std::string::npos);
    CHECK(text.find("username = \"robot\"") != std::string::npos);
  }
  SUBCASE("a bearer token in a log line") {
    std::string text = "request failed: Authorization: Bearer abcdef0123456789xyz\n";
    CHECK(ScrubText(text) == 1);
    CHECK(text == "request failed: Authorization: Bearer <redacted>\n");
  }
  SUBCASE("a PEM private key block") {
    std::string text = "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\ny\n";
    CHECK(ScrubText(text) == 1);
    CHECK(text == "x\n-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----\ny\n");
  }
  SUBCASE("evidence is untouched") {
    std::string text = "I1118 11:18:17.4 1 main.go:256] Failed to initialize NVML: Unknown Error.\n"
                       "  \"failOnInitError\": false,\n";
    std::string before = text;
    CHECK(ScrubText(text) == 0);
    CHECK(text == before);
  }
}

TEST_CASE("RedactRuntimeJson: env values and secret args in crictl inspect") {
  std::string inspect = R"({"info":{"config":{"envs":[{"key":"FAIL_ON_INIT_ERROR","value":"false"},)"
                        R"({"key":"AWS_SECRET_ACCESS_KEY","value":"s3cr3t"}]},)"
                        R"("runtimeSpec":{"process":{"env":["NVIDIA_VISIBLE_DEVICES=all","DB_URL=postgres://u:p@h/db"],)"
                        R"("args":["nvidia-device-plugin","--fail-on-init-error=false","--token","t0k3n"]}}}})";
  int count = RedactRuntimeJson(inspect);
  CHECK(count == 3);
  auto doc = nlohmann::json::parse(inspect);
  auto& envs = doc["info"]["config"]["envs"];
  CHECK(envs[0]["value"] == "false");
  CHECK(envs[1]["value"] == "<redacted>");
  auto& env = doc["info"]["runtimeSpec"]["process"]["env"];
  CHECK(env[0] == "NVIDIA_VISIBLE_DEVICES=all");
  CHECK(env[1] == "DB_URL=<redacted>");
  auto& args = doc["info"]["runtimeSpec"]["process"]["args"];
  CHECK(args[1] == "--fail-on-init-error=false");
  CHECK(args[3] == "<redacted>");
}

}  // TEST_SUITE

}  // namespace gpuf

namespace gpuf {

TEST_SUITE("secrets") {

TEST_CASE("ScrubText: JSON stays valid JSON, whatever the quoting of the secret") {
  std::string line =
      R"({"MESSAGE":"login password=\"gpuf-canary-1\" token=gpuf-canary-2 ok","_PID":"1","api_key":"gpuf-canary-3"})";
  CHECK(ScrubText(line) == 3);
  CHECK(line.find("gpuf-canary") == std::string::npos);
  auto doc = nlohmann::json::parse(line, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  CHECK(doc["MESSAGE"] == "login password=\"<redacted>\" token=<redacted> ok");
  CHECK(doc["api_key"] == "<redacted>");
}

TEST_CASE("ScrubText: an object or list under a secret-named key keeps its structure") {
  // crictl info: registry auth is an object; only its secret leaves go.
  std::string text = "{\n  \"auth\": {\n    \"username\": \"puller\",\n    \"password\": \"gpuf-canary\",\n"
                     "    \"auth\": \"\"\n  },\n  \"tokens\": [\"a\"]\n}\n";
  CHECK(ScrubText(text) == 1);
  auto doc = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  CHECK(doc["auth"]["password"] == "<redacted>");
  CHECK(doc["auth"]["username"] == "puller");
}

TEST_CASE("ScrubText: already redacted values are not counted again") {
  std::string text = "--api-token=<redacted> password: \"<redacted>\"";
  CHECK(ScrubText(text) == 0);
}

TEST_CASE("ScrubText: the forms a support case leaks: Basic, unsigned JWTs, URL passwords, flag values, pass keys") {
  std::string text =
      "Authorization: Basic dXNlcjpwYXNz\n"
      "jwt eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4eXoifQ. ok\n"
      "redis://:s3cret@cache:6379/0 https://user:pw@host/x\n"
      "app --password hunter2 --db-secret x2 --verbose\n"
      "DB_PASS=letmein passphrase: open-sesame X-Api-Key: k3y\n"
      "bypass: kept passDeviceSpecs: true\n";
  ScrubText(text);
  CHECK(text ==
        "Authorization: Basic <redacted>\n"
        "jwt <redacted> ok\n"
        "redis://:<redacted>@cache:6379/0 https://user:<redacted>@host/x\n"
        "app --password <redacted> --db-secret <redacted> --verbose\n"
        "DB_PASS=<redacted> passphrase: <redacted> X-Api-Key: <redacted>\n"
        "bypass: kept passDeviceSpecs: true\n");
}

TEST_CASE("EnvValueScrubber: name/value entries in YAML and JSON, the GPU stack's settings kept") {
  std::string text =
      "    env:\n"
      "    - name: REGISTRY_TOKEN\n"
      "      value: abc\n"
      "    - name: FAIL_ON_INIT_ERROR\n"
      "      value: \"false\"\n"
      "    - {name: MIRROR, value: \"m1\"}\n"
      "    - name: CA\n"
      "      value: |\n"
      "        line one\n"
      "        line two\n"
      "    - name: NEXT\n"
      "      valueFrom: {secretKeyRef: {name: s, key: k}}\n"
      "      \"key\": \"HTTP_PROXY\",\n"
      "      \"value\": \"http://proxy:3128\"\n"
      "{\"name\":\"MIG_STRATEGY\",\"value\":\"single\"} {\"key\":\"TOKEN2\",\"value\":\"t\"}\n"
      "  kubectl.kubernetes.io/last-applied-configuration: |\n"
      "    {\"spec\":{}}\n"
      "  labels: {}\n";
  ScrubText(text);
  CHECK(text ==
        "    env:\n"
        "    - name: REGISTRY_TOKEN\n"
        "      value: <redacted>\n"
        "    - name: FAIL_ON_INIT_ERROR\n"
        "      value: \"false\"\n"
        "    - {name: MIRROR, value: \"<redacted>\"}\n"
        "    - name: CA\n"
        "      value: <redacted>\n"
        "\n"
        "\n"
        "    - name: NEXT\n"
        "      valueFrom: {secretKeyRef: {name: s, key: k}}\n"
        "      \"key\": \"HTTP_PROXY\",\n"
        "      \"value\": \"<redacted>\"\n"
        "{\"name\":\"MIG_STRATEGY\",\"value\":\"single\"} {\"key\":\"TOKEN2\",\"value\":\"<redacted>\"}\n"
        "  kubectl.kubernetes.io/last-applied-configuration: <redacted>\n"
        "\n"
        "  labels: {}\n");
}

TEST_CASE("RedactRuntimeJson: the last-applied-configuration annotation goes whole") {
  std::string pods = R"({"items":[{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":)"
                     R"("{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"s\"}]}]}}"}}}]})";
  CHECK(RedactRuntimeJson(pods) >= 1);
  auto doc = nlohmann::json::parse(pods);
  CHECK(doc["items"][0]["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] ==
        "<redacted>");
}

TEST_CASE("RedactionFor: the spec artifacts of collect and import alike") {
  CHECK(RedactionFor("k8s.node_pods") == Redaction::kRuntimeJson);
  CHECK(RedactionFor("config.static_pod") == Redaction::kRuntimeJson);
  CHECK(RedactionFor("journal.kubelet") == Redaction::kText);
}

}  // TEST_SUITE

TEST_CASE("ScrubText: every credential a kubeconfig user can hold") {
  std::string text =
      "users:\n"
      "- name: admin\n"
      "  user:\n"
      "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n"
      "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=\n"
      "    token: kubeconfig-token-1234\n"
      "    password: hunter2\n"
      "    auth-provider:\n"
      "      config:\n"
      "        id-token: id-token-value-9876\n"
      "        refresh-token: refresh-value-5432\n"
      "        client-secret: oidc-secret-1111\n"
      "    exec:\n"
      "      env:\n"
      "      - name: AWS_PROFILE\n"
      "        value: prod-admin-profile\n"
      "{\"client-key-data\":\"QUJDREVGRw==\",\"client-certificate\":\"/etc/kubernetes/pki/apiserver.crt\"}\n";
  ScrubText(text);
  for (const char* secret :
       {"LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=", "kubeconfig-token-1234", "hunter2", "id-token-value-9876",
        "refresh-value-5432", "oidc-secret-1111", "prod-admin-profile", "QUJDREVGRw=="}) {
    CHECK_MESSAGE(text.find(secret) == std::string::npos, secret);
  }
  // A certificate is public and says which identity the kubelet used.
  CHECK(text.find("client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t") != std::string::npos);
  CHECK(text.find("/etc/kubernetes/pki/apiserver.crt") != std::string::npos);
}

TEST_CASE("ScrubText: env written value first, secrets as the next argument, cookies and tokens behind a prefix") {
  std::string text =
      "    env:\n"
      "    - value: value-first-secret\n"
      "      name: REGISTRY_PASSWORD\n"
      "    - value: \"single\"\n"
      "      name: MIG_STRATEGY\n"
      "{\"value\":\"json-value-first\",\"name\":\"API_TOKEN\"}\n"
      "    args: [\"--token\", \"next-arg-secret\", \"--verbose\"]\n"
      "    - --client-secret\n"
      "    - list-arg-secret\n"
      "Cookie: session=cookie-secret-1; theme=dark\n"
      "Set-Cookie: sid=set-cookie-secret; Path=/; HttpOnly\n"
      "Dec 05 10:00:00 node-a app[12]: pushing with ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"
      "Dec 05 10:00:00 node-a app[12]: notify xoxb-123456789012-abcdefghijkl\n";
  ScrubText(text);
  for (const char* secret :
       {"value-first-secret", "json-value-first", "next-arg-secret", "list-arg-secret", "cookie-secret-1",
        "set-cookie-secret", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "xoxb-123456789012-abcdefghijkl"}) {
    CHECK_MESSAGE(text.find(secret) == std::string::npos, secret);
  }
  CHECK(text.find("- value: \"single\"\n      name: MIG_STRATEGY") != std::string::npos);
  CHECK(text.find("\"--verbose\"") != std::string::npos);
}

}  // namespace gpuf
