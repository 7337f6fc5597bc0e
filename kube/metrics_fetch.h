// How the plugin reaches a metrics query API, one GET at a time:
//
//   --metrics-service monitoring/prometheus-k8s:9090
//       kubectl get --raw /api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/query_range?...
//       through the API server's service proxy, with the user's own kubectl
//       and credentials (RBAC: get on services/proxy); nothing else sees them.
//   --metrics https://prometheus.example:9090 [--metrics-token-file FILE]
//       curl, whose config (the Authorization header, when a token is
//       given) it reads from a pipe: the token is on no command line and in
//       no file the plugin writes. https only, unless --metrics-insecure;
//       redirects are not followed, so the token goes nowhere else.
#ifndef GPUF_KUBE_METRICS_FETCH_H_
#define GPUF_KUBE_METRICS_FETCH_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "kube/kubectl_runner.h"

namespace gpuf {

inline constexpr int64_t kMaxMetricsAnswerBytes = 4LL << 20;

class MetricsFetcher {
 public:
  virtual ~MetricsFetcher() = default;
  // The body of GET `path` (path and query string, from metrics_query.h).
  // Fails with IoError saying why in one line: the server's status and
  // error, kubectl's or curl's complaint, "deadline passed", an answer
  // larger than kMaxMetricsAnswerBytes.
  virtual Result<std::string> Get(const std::string& path, int64_t deadline_ns,
                                  const std::atomic<bool>* interrupt) const = 0;
  // Where it asks, for the bundle and for people: "https://prom:9090",
  // "service monitoring/prometheus-k8s:9090 through the API server".
  virtual std::string Source() const = 0;
};

// --metrics-service NAMESPACE/[SCHEME:]SERVICE[:PORT]. Fails with
// InvalidArgument when `service` is not of that shape.
Result<std::unique_ptr<MetricsFetcher>> ServiceProxyFetcher(const KubectlRunner* kubectl, const std::string& service);

struct DirectMetricsOptions {
  std::string url;         // http(s)://host[:port][/prefix]
  std::string token_file;  // "" for none
  bool insecure = false;   // http:// allowed
  std::string work_dir;    // private; where curl's output is captured
};

// --metrics URL. Fails with InvalidArgument on a URL that is not http(s),
// is http without `insecure`, or carries user:password@; on a token file
// that cannot be read or holds more than one line; and when curl is not
// on PATH.
Result<std::unique_ptr<MetricsFetcher>> DirectFetcher(const DirectMetricsOptions& options);

}  // namespace gpuf

#endif  // GPUF_KUBE_METRICS_FETCH_H_
