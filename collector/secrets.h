// Keeping secrets out of bundles.
//
// Three layers, cheapest first: paths that are never read at all (kubelet
// PKI, service-account tokens, kubeconfigs); structured redaction of the
// places that hold resolved secret values (container environment and
// arguments in runtime specs and pod specs); and a text scrubber over every
// stored artifact (private-key blocks, bearer tokens, JWTs, key=value pairs
// whose key names a secret). Redaction keeps evidence: environment values
// that configure the GPU stack (NVIDIA_*, FAIL_ON_INIT_ERROR, MIG_STRATEGY...)
// stay readable unless their name itself says secret.
#ifndef GPUF_COLLECTOR_SECRETS_H_
#define GPUF_COLLECTOR_SECRETS_H_

#include <string>
#include <string_view>

namespace gpuf {

inline constexpr std::string_view kRedacted = "<redacted>";

// True for host paths the collector must never open.
bool IsForbiddenHostPath(std::string_view host_path);

// True when an environment variable's value may be stored as is.
bool IsEvidenceEnvName(std::string_view name);

// Replaces secret values in free text. Returns how many were replaced.
int ScrubText(std::string& text);

// Redacts env values and secret arguments in JSON printed by
// `crictl inspect`, `ctr containers info` or `kubectl get pods -o json`,
// then scrubs the text. Text that is not JSON is only scrubbed. Returns the
// number of replacements; `json_text` is rewritten in place.
int RedactRuntimeJson(std::string& json_text);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_SECRETS_H_
