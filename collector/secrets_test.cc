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

}  // TEST_SUITE

}  // namespace gpuf
