#include "kube/metrics_fetch.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "collector/capped_file.h"
#include "collector/subprocess.h"
#include "common/file_io.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

constexpr int64_t kNsPerS = 1'000'000'000;
constexpr int64_t kMaxTokenBytes = 8192;  // a JWT with many claims; fits a pipe's buffer with room to spare

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == ':' || c == '_';
}

class ServiceProxy : public MetricsFetcher {
 public:
  ServiceProxy(const KubectlRunner* kubectl, std::string ns, std::string service)
      : kubectl_(kubectl), ns_(std::move(ns)), service_(std::move(service)) {}

  Result<std::string> Get(const std::string& path, int64_t deadline_ns,
                          const std::atomic<bool>* interrupt) const override {
    const std::string proxied = "/api/v1/namespaces/" + ns_ + "/services/" + service_ + "/proxy" + path;
    return kubectl_->Output({"get", "--raw", proxied}, deadline_ns, interrupt, kMaxMetricsAnswerBytes);
  }

  std::string Source() const override { return "service " + ns_ + "/" + service_ + " through the API server"; }

 private:
  const KubectlRunner* kubectl_;
  std::string ns_;
  std::string service_;
};

// A pipe that holds `text` with its write end closed, for a child to read
// as its stdin through /dev/fd/N: what it carries is never on disk.
class TextPipe {
 public:
  ~TextPipe() {
    if (read_fd_ >= 0) close(read_fd_);
  }
  Status Fill(const std::string& text) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return Status::IoError("cannot make a pipe for curl's config");
    read_fd_ = fds[0];
    const bool written = write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
    close(fds[1]);
    return written ? Status::Ok() : Status::IoError("cannot write curl's config to its pipe");
  }
  std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

 private:
  int read_fd_ = -1;
};

// "HTTP 503: the error Prometheus gave", from a body that may not be JSON.
std::string HttpFailure(const std::string& code, const std::string& body) {
  const auto doc = nlohmann::json::parse(body, nullptr, false);
  std::string said = FirstLine(body.substr(0, 200));
  if (doc.is_object() && doc.contains("error") && doc["error"].is_string()) said = doc["error"].get<std::string>();
  return "HTTP " + code + (said.empty() ? "" : ": " + said);
}

class Curl : public MetricsFetcher {
 public:
  Curl(std::string curl, DirectMetricsOptions options, std::string token)
      : curl_(std::move(curl)), options_(std::move(options)), token_(std::move(token)) {}

  Result<std::string> Get(const std::string& path, int64_t deadline_ns,
                          const std::atomic<bool>* interrupt) const override {
    CommandSpec spec;
    spec.executable = curl_;
    const int64_t seconds = std::max<int64_t>(1, (deadline_ns - MonotonicNowNs()) / kNsPerS);
    // -q first: a ~/.curlrc that follows redirects must not send the token on.
    spec.argv = {"curl",
                 "-q",
                 "--silent",
                 "--show-error",
                 "--globoff",
                 "--max-time",
                 std::to_string(seconds),
                 "--proto",
                 options_.insecure ? "=http,https" : "=https",
                 "--max-filesize",
                 std::to_string(kMaxMetricsAnswerBytes),
                 "--write-out",
                 "\n%{http_code}"};
    TextPipe config;
    if (!token_.empty()) {
      GPUF_RETURN_IF_ERROR(config.Fill("header = \"Authorization: Bearer " + token_ + "\"\n"));
      spec.stdin_path = config.path();
      spec.argv.insert(spec.argv.end(), {"--config", "-"});
    }
    spec.argv.push_back(options_.url + path);
    spec.deadline_monotonic_ns = deadline_ns;
    const std::string base = options_.work_dir + "/metrics-" + std::to_string(calls_.fetch_add(1));
    CappedFile out(base + ".out", kMaxMetricsAnswerBytes + 16, KeepMode::kHead);
    CappedFile err(base + ".err", 64 << 10, KeepMode::kTail);
    GPUF_RETURN_IF_ERROR(out.Open());
    GPUF_RETURN_IF_ERROR(err.Open());
    const CommandOutcome outcome = RunCommand(spec, out, err, interrupt);
    (void)out.Finish();
    (void)err.Finish();
    auto body = ReadWholeFile(out.path());
    auto complaint = ReadWholeFile(err.path());
    std::remove(out.path().c_str());
    std::remove(err.path().c_str());
    if (outcome.interrupted) return Status::IoError("interrupted");
    if (outcome.timed_out) return Status::IoError("deadline passed");
    if (!outcome.exit_code || *outcome.exit_code != 0 || !body.ok()) {
      const std::string said = complaint.ok() ? LastLine(*complaint) : "";
      return Status::IoError(said.empty() ? "curl failed" : said);
    }
    if (out.truncated())
      return Status::IoError("the answer is larger than " + std::to_string(kMaxMetricsAnswerBytes) + " bytes");
    const size_t cut = body->rfind('\n');
    const std::string code = cut == std::string::npos ? "" : body->substr(cut + 1);
    body->resize(cut == std::string::npos ? 0 : cut);
    if (code != "200") return Status::IoError(HttpFailure(code, *body));
    return std::move(*body);
  }

  std::string Source() const override { return options_.url; }

 private:
  std::string curl_;
  DirectMetricsOptions options_;
  std::string token_;
  mutable std::atomic<int> calls_{0};
};

Result<std::string> ReadToken(const std::string& path) {
  auto text = ReadWholeFile(path, kMaxTokenBytes + 1);
  if (!text.ok()) return Status::InvalidArgument("--metrics-token-file " + path, text.status().message());
  const std::string token(Trim(*text));
  if (text->size() > static_cast<size_t>(kMaxTokenBytes)) {
    return Status::InvalidArgument("--metrics-token-file " + path + " is larger than a token");
  }
  for (char c : token) {
    if (static_cast<unsigned char>(c) < 0x21 || c == '"' || c == '\\' || c == 0x7f) {
      return Status::InvalidArgument("--metrics-token-file " + path + " holds more than one token on one line");
    }
  }
  if (token.empty()) return Status::InvalidArgument("--metrics-token-file " + path + " is empty");
  return token;
}

}  // namespace

Result<std::unique_ptr<MetricsFetcher>> ServiceProxyFetcher(const KubectlRunner* kubectl, const std::string& service) {
  const size_t slash = service.find('/');
  const bool shaped = slash != std::string::npos && slash > 0 && slash + 1 < service.size() &&
                      std::all_of(service.begin(), service.end(), [](char c) { return IsNameChar(c) || c == '/'; }) &&
                      service.find('/', slash + 1) == std::string::npos;
  if (!shaped) {
    return Status::InvalidArgument("--metrics-service '" + service +
                                   "' is not NAMESPACE/SERVICE:PORT (e.g. monitoring/prometheus-k8s:9090)");
  }
  return std::unique_ptr<MetricsFetcher>(
      std::make_unique<ServiceProxy>(kubectl, service.substr(0, slash), service.substr(slash + 1)));
}

Result<std::unique_ptr<MetricsFetcher>> DirectFetcher(const DirectMetricsOptions& options) {
  DirectMetricsOptions o = options;
  const bool https = o.url.rfind("https://", 0) == 0;
  const bool http = o.url.rfind("http://", 0) == 0;
  if (!https && !http) return Status::InvalidArgument("--metrics '" + o.url + "' is not an http(s):// URL");
  if (http && !o.insecure) {
    return Status::InvalidArgument("--metrics '" + o.url + "' is plain http: give an https URL, or --metrics-insecure");
  }
  const size_t authority = o.url.find("://") + 3;
  const std::string host_part = o.url.substr(authority, o.url.find('/', authority) - authority);
  if (host_part.find('@') != std::string::npos) {
    return Status::InvalidArgument("--metrics URL carries credentials: give a token with --metrics-token-file");
  }
  if (host_part.empty()) return Status::InvalidArgument("--metrics '" + o.url + "' names no host");
  while (!o.url.empty() && o.url.back() == '/') o.url.pop_back();
  std::string token;
  if (!o.token_file.empty()) {
    GPUF_ASSIGN_OR_RETURN(token, ReadToken(o.token_file));
  }
  const char* path_env = std::getenv("PATH");
  std::string curl = FindExecutable("curl", path_env ? path_env : "");
  if (curl.empty()) {
    return Status::InvalidArgument("--metrics URL needs curl, which is not on PATH (or use --metrics-service)");
  }
  return std::unique_ptr<MetricsFetcher>(std::make_unique<Curl>(std::move(curl), std::move(o), std::move(token)));
}

}  // namespace gpuf
