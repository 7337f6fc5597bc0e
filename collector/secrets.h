// Keeping secrets out of bundles.
//
// Three layers, cheapest first: paths that are never read at all (kubelet
// PKI, service-account tokens, kubeconfigs), checked where a path leads
// after its links are resolved inside the root, and files that are
// credentials whatever their path (a hard link to a kubeconfig, a private
// key or a kubeconfig copied elsewhere); structured redaction of the
// places that hold resolved secret values (container environment and
// arguments in runtime specs and pod specs, the
// kubectl.kubernetes.io/last-applied-configuration annotation); and a text
// scrubber over every stored artifact, collected or imported (private-key
// blocks, bearer and Basic credentials, JWTs signed or not, URL passwords,
// key=value pairs and --flag values whose key names a secret, and name/value
// environment entries in YAML and JSON, block and flow). Redaction keeps
// evidence: environment values that configure the GPU stack (the
// kEvidenceEnvNames table: NVIDIA_*, FAIL_ON_INIT_ERROR, MIG_STRATEGY...)
// stay readable unless their name itself says secret.
#ifndef GPUF_COLLECTOR_SECRETS_H_
#define GPUF_COLLECTOR_SECRETS_H_

#include <span>
#include <string>
#include <string_view>

namespace gpuf {

inline constexpr std::string_view kRedacted = "<redacted>";

// How an artifact's text is redacted; RedactionFor() says which, by name.
enum class Redaction {
  kText,         // scrub free text
  kRuntimeJson,  // env/args redaction in runtime or pod JSON, then scrub
};

// The artifacts that hold container specs (crictl inspect and info, ctr
// container info, the node's pods, static pod manifests) get kRuntimeJson,
// every other kText: the same for collect and import.
Redaction RedactionFor(std::string_view artifact_name);

// Applies `redaction` to `text` in place; the number of values replaced.
int RedactText(std::string& text, Redaction redaction);

// The configuration variables of the GPU stack whose values are evidence: a
// name, or a prefix ending in '*'.
std::span<const std::string_view> EvidenceEnvNames();

// True for host paths the collector must never open.
bool IsForbiddenHostPath(std::string_view host_path);

// Well-known credential files (kubeconfigs, the kubelet's client key): a
// hard link to one of them, found at another path, is refused by its device
// and inode.
std::span<const std::string_view> CredentialFiles();

// True when the first bytes of a file show it is a credential whatever its
// path: a PEM private key, or a kubeconfig that holds a user's key, token or
// password. Log files that merely mention such text start otherwise.
bool LooksLikeCredentialFile(std::string_view head);

// True when an environment variable's value may be stored as is.
bool IsEvidenceEnvName(std::string_view name);

// Replaces secret values in free text. Returns how many were replaced.
int ScrubText(std::string& text);

// Name/value environment entries, the last-applied-configuration
// annotation and a secret flag's value as the next item of a block YAML
// list ("- --token" then "- v"), one line at a time (a value follows its name on the next
// line in block YAML and pretty JSON): feed every line of one text in
// order. Values of evidence names stay.
class EnvValueScrubber {
 public:
  int Line(std::string& line);

 private:
  int FlowForms(std::string& line);
  int NextArgument(std::string& line, int previous_flag_column);
  int name_column_ = -1;       // the column of the previous line's name key, -1 when none
  int flag_column_ = -1;       // the column of the previous line's "- --token" list item, -1 when none
  bool name_is_evidence_ = false;
  int dropping_above_ = -1;    // a block value is being dropped: lines indented deeper than this
};

// Redacts env values and secret arguments in JSON printed by
// `crictl inspect`, `ctr containers info` or `kubectl get pods -o json`,
// then scrubs the text. Text that is not JSON is only scrubbed. Returns the
// number of replacements; `json_text` is rewritten in place.
int RedactRuntimeJson(std::string& json_text);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_SECRETS_H_
