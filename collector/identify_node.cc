#include "collector/identify_node.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "collector/capped_file.h"
#include "collector/subprocess.h"
#include "common/file_io.h"
#include "common/journal_match.h"
#include "common/journal_slices.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

constexpr int64_t kJournalCapBytes = 8 << 20;
constexpr char kServiceAccountToken[] = "/var/run/secrets/kubernetes.io/serviceaccount/token";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string Hostname(const HostRoot& host) {
  if (auto text = host.Read("/etc/hostname", 256); text && !Trim(*text).empty()) return FirstLine(Trim(*text));
  if (host.root() != "/") return "";
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "";
}

// The kubelet's lines of the current boot that can name the Node, through
// the host's journalctl; "" when it cannot run.
std::string KubeletJournal(const CollectOptions& options, const HostExec& exec, const PlatformMatch& platform,
                           const std::string& scratch_dir) {
  std::vector<std::string> argv = {"journalctl"};
  for (const auto& arg : exec.JournalRootArgs()) argv.push_back(arg);
  argv.insert(argv.end(), {"--no-pager", "-o", "cat", "-b", "0", "--grep",
                           "Successfully registered node|Running kubelet"});
  std::vector<JournalMatch> matches = {JournalSliceMatch(*FindJournalSlice("journal.kubelet"))};
  if (platform.distribution) {
    for (auto unit : PlatformWords(platform.distribution->kubelet_units)) matches.push_back(JournalUnitMatch(unit));
  }
  for (auto& arg : JournalMatchArgs(JournalMatchUnion(matches))) argv.push_back(std::move(arg));
  PreparedCommand command = exec.Prepare(argv);
  if (command.executable.empty()) return "";
  const std::string path = scratch_dir + "/node-identity.journal";
  CappedFile out(path, kJournalCapBytes, KeepMode::kTail), err(path + ".err", 1 << 16, KeepMode::kTail);
  if (!out.Open().ok() || !err.Open().ok()) return "";
  CommandSpec spec{command.executable, command.argv, {"TZ=UTC"},
                   MonotonicNowNs() + options.probe_timeout_ms * 1'000'000};
  CommandOutcome outcome = RunCommand(spec, out, err, nullptr);
  (void)out.Finish();
  (void)err.Finish();
  auto text = ReadWholeFile(path);
  std::remove(path.c_str());
  std::remove((path + ".err").c_str());
  return outcome.exit_code == 0 && text.ok() ? std::move(*text) : "";
}

}  // namespace

IdentifiedNode IdentifyNode(const CollectOptions& options, const HostRoot& host, const HostExec& exec,
                            const PlatformMatch& platform, const std::string& scratch_dir) {
  NodeIdentityInputs in;
  in.host = &host;
  // A kubeconfig candidate may sit where secrets do (/etc/kubernetes/*.conf):
  // only its first bytes are read, for the leading apiVersion and kind.
  in.read_head = [&host](const std::string& path) -> std::optional<std::string> {
    auto head = host.ReadSmallFile(path, 256);
    if (!head.ok()) return std::nullopt;
    return std::move(head).value();
  };
  in.platform = platform;
  in.option_node = options.node;
  if (options.node_object) in.node_object_name = options.node_object->name;
  in.env_node_name = Env("NODE_NAME");
  if (NodeNameProblem(in.env_node_name)) in.env_node_name.clear();  // not a name (the command warned)
  in.hostname = Hostname(host);
  in.option_kubeconfig = options.kubeconfig;
  in.env_kubeconfig = Env("KUBECONFIG");
  // kubectl finds the pod's service account only when it runs in the pod,
  // not in the host's root or namespaces. Only the token's existence is checked.
  in.in_cluster = exec.mode() == ExecMode::kPath && !Env("KUBERNETES_SERVICE_HOST").empty() &&
                  access(kServiceAccountToken, F_OK) == 0;
  if (!scratch_dir.empty()) {
    in.kubelet_journal = [&] { return KubeletJournal(options, exec, platform, scratch_dir); };
  }
  IdentifiedNode out;
  out.identity = ResolveNodeIdentity(in);
  const NodeIdentity& id = out.identity;
  out.in_cluster = id.kubeconfig_source == "in_cluster";
  if (!id.kubeconfig.empty()) {
    // What the user named is passed as named; a path found on the host is
    // given as the host's kubectl sees it.
    const bool given = id.kubeconfig_source == "option" || id.kubeconfig_source == "env";
    out.kubectl_kubeconfig = given ? id.kubeconfig : exec.HostPathArg(id.kubeconfig);
  }
  return out;
}

}  // namespace gpuf
