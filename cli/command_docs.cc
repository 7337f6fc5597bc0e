#include "cli/command_docs.h"

namespace gpuf {

namespace {

// What each variable does, said once per command that reads it.
constexpr EnvironmentUse kTmpdirDatabase = {
    "TMPDIR",
    "where the analysis database's private temporary file is made ($SQLITE_TMPDIR first; default /var/tmp, else "
    "/tmp); it is unlinked as soon as it is open and gone at exit"};
constexpr EnvironmentUse kNoColor = {
    "NO_COLOR", "when set and not empty, the text report on a terminal has no colour (https://no-color.org)"};
constexpr EnvironmentUse kCollectKubeconfig = {
    "KUBECONFIG", "the kubeconfig kubectl reads the Node and its pods with, when --kubeconfig is not given "
                  "(else the kubelet's /etc/kubernetes/kubelet.conf)"};
constexpr EnvironmentUse kNodeName = {
    "NODE_NAME", "the node's name when --node is not given (a pod sets it from the downward API, spec.nodeName)"};
constexpr EnvironmentUse kCollectPath = {
    "PATH", "where host tools are found with --exec path (with chroot and nsenter, the host's standard directories)"};

constexpr Example kIndexExamples[] = {
    {"kubectl gpuforensics collect node/gpu-node-17", "collect a node from a laptop (the kubectl plugin)"},
    {"gpuforensics collect", "collect the node you are on, into gpuforensics-<node>-<UTC time>.tar.zst"},
    {"gpuforensics analyze bundle.tar.zst", "the chain verdict, the boot timeline and the findings"},
};
constexpr EnvironmentUse kIndexEnvironment[] = {
    {"NO_COLOR", "no colour in analyze's report on a terminal"},
    {"TMPDIR", "where analysis databases and collect --output -'s bundle are made before they go"},
    {"KUBECONFIG", "the kubeconfig collect, watch and kubectl gpuforensics give kubectl"},
    {"NODE_NAME", "the node's name for collect and watch when --node is not given"},
};

constexpr Example kCollectExamples[] = {
    {"gpuforensics collect", "collect this node into gpuforensics-<node>-<UTC time>.tar.zst here"},
    {"gpuforensics collect -o /var/tmp/b.tar.zst --timeout 5 --deadline 60", "a shorter run, to a chosen file"},
    {"gpuforensics collect --root /host --exec chroot", "from a privileged pod with the host's / at /host"},
    {"gpuforensics collect --root /host --exec chroot --output - > node.tar.zst", "the bundle on stdout"},
};
constexpr EnvironmentUse kCollectEnvironment[] = {
    kNodeName, kCollectKubeconfig, kCollectPath,
    {"TMPDIR", "with --output -, where the bundle is written before it is copied to stdout (default /tmp)"},
};

constexpr Example kWatchExamples[] = {
    {"gpuforensics watch --out-dir /var/lib/gpuforensics", "one check; a bundle when the chain is broken"},
    {"gpuforensics watch --root /host --exec nsenter --out-dir /host/var/lib/gpuforensics --check-allocatable",
     "from the watch DaemonSet's pod (deploy/kubernetes/), asking the API for allocatable too"},
};
constexpr EnvironmentUse kWatchEnvironment[] = {kNodeName, kCollectKubeconfig, kCollectPath};

constexpr Example kAnalyzeExamples[] = {
    {"gpuforensics analyze bundle.tar.zst", "chain verdict, boot timeline, findings, coverage"},
    {"gpuforensics analyze bundle.tar.zst --format html > report.html", "one self-contained page"},
    {"gpuforensics analyze --db fleet.sqlite bundles/*.tar.zst", "many nodes into one fleet database"},
    {"gpuforensics analyze sosreport-node-1.tar.xz", "a sos report, converted on the way (docs/inputs.md)"},
};
constexpr EnvironmentUse kAnalyzeEnvironment[] = {kTmpdirDatabase, kNoColor};

constexpr Example kRedactExamples[] = {
    {"gpuforensics redact bundle.tar.zst case-redacted.tar.zst --map case.map.json",
     "a copy for a support case; the map back stays with you"},
    {"gpuforensics redact b.tar.zst out.tar.zst --redact-keyword acme.internal", "your own words replaced too"},
};
constexpr std::span<const EnvironmentUse> kNoEnvironment;

constexpr Example kVerifyExamples[] = {
    {"gpuforensics verify bundle.tar.zst", "sizes and sha256 of every member against the manifest"},
};


constexpr Example kTimelineExamples[] = {
    {"gpuforensics timeline bundle.tar.zst", "the milestones of every boot, in UTC"},
    {"gpuforensics timeline bundle.tar.zst --all --format jsonl > t.jsonl", "every event, for Timesketch"},
};
constexpr EnvironmentUse kTimelineEnvironment[] = {kTmpdirDatabase};

constexpr Example kDiffExamples[] = {
    {"gpuforensics diff broken.tar.zst healthy.tar.zst", "what differs between two nodes"},
    {"gpuforensics diff before.tar.zst after.tar.zst --format json", "a recovery checked, for tools"},
};
constexpr EnvironmentUse kDiffEnvironment[] = {kTmpdirDatabase};

constexpr Example kSqlExamples[] = {
    {"gpuforensics sql bundle.tar.zst \"SELECT name, seconds FROM intervals\"", "one query against a bundle"},
    {"gpuforensics sql fleet.sqlite \"SELECT node_name FROM fleet_bundles\"", "or against a kept database"},
    {"gpuforensics sql bundle.tar.zst \"SELECT * FROM diagnoses\" --format json | jq .", "rows as JSON, for jq"},
};
constexpr EnvironmentUse kSqlEnvironment[] = {kTmpdirDatabase};

constexpr Example kFleetExamples[] = {
    {"gpuforensics fleet fleet.sqlite", "nodes by finding, chain step, component version, key interval"},
    {"gpuforensics fleet fleet.sqlite --nodes dp-started-before-driver-ready", "the nodes with one finding"},
};


constexpr Example kImportExamples[] = {
    {"gpuforensics import sosreport-node-1.tar.xz -o node-1.tar.zst", "a sos report kept as a bundle"},
    {"gpuforensics import ./saved-outputs/ -o node.tar.zst", "command outputs saved by hand"},
};
constexpr EnvironmentUse kImportEnvironment[] = {
    {"TMPDIR", "where a compressed source is unpacked while it is read (default /tmp)"}};

constexpr Example kRulesExamples[] = {
    {"gpuforensics rules lint rules/ && gpuforensics rules test rules/", "check a rules folder"},
    {"gpuforensics rules run bundle.tar.zst --rules site-rules/", "the rules alone, on one bundle"},
};
constexpr EnvironmentUse kRulesEnvironment[] = {kTmpdirDatabase};

constexpr Example kCompletionExamples[] = {
    {"source <(gpuforensics completion bash)", "complete gpuforensics in this bash"},
    {"gpuforensics completion zsh > ~/.zfunc/_gpuforensics", "for zsh, in a directory of its fpath"},
    {"gpuforensics completion fish > ~/.config/fish/completions/gpuforensics.fish", "for fish"},
};

constexpr Example kPluginIndexExamples[] = {
    {"kubectl gpuforensics collect node/gpu-node-17", "collect one node into ./gpuforensics-gpu-node-17-<UTC time>.tar.zst"},
};
constexpr EnvironmentUse kPluginEnvironment[] = {
    {"KUBECONFIG", "the kubeconfig kubectl uses when --kubeconfig is not given"},
    {"PATH", "where kubectl is found"},
    {"TMPDIR", "where the pod manifests and kubectl's output are kept while the run lasts (default /tmp)"},
};
constexpr Example kPluginCollectExamples[] = {
    {"kubectl gpuforensics collect node/gpu-node-17", "one node, its bundle here"},
    {"kubectl gpuforensics collect -l nvidia.com/gpu.present=true -j 4 -d bundles/",
     "every GPU node, four at a time"},
    {"kubectl gpuforensics collect node/gpu-node-17 --dry-run -o yaml", "the pod that would run, for review"},
    {"kubectl gpuforensics collect node/gpu-node-17 -n gpuforensics --context prod",
     "in a namespace that admits privileged pods, on another cluster"},
};

constexpr CommandPageExtras kPages[] = {
    {"gpuforensics", "", kIndexExamples, kIndexEnvironment},
    {"gpuforensics", "collect", kCollectExamples, kCollectEnvironment},
    {"gpuforensics", "watch", kWatchExamples, kWatchEnvironment},
    {"gpuforensics", "analyze", kAnalyzeExamples, kAnalyzeEnvironment},
    {"gpuforensics", "redact", kRedactExamples, kNoEnvironment},
    {"gpuforensics", "verify", kVerifyExamples, kNoEnvironment},
    {"gpuforensics", "timeline", kTimelineExamples, kTimelineEnvironment},
    {"gpuforensics", "diff", kDiffExamples, kDiffEnvironment},
    {"gpuforensics", "sql", kSqlExamples, kSqlEnvironment},
    {"gpuforensics", "fleet", kFleetExamples, kNoEnvironment},
    {"gpuforensics", "import", kImportExamples, kImportEnvironment},
    {"gpuforensics", "rules", kRulesExamples, kRulesEnvironment},
    {"gpuforensics", "completion", kCompletionExamples, kNoEnvironment},
    {"kubectl gpuforensics", "", kPluginIndexExamples, kPluginEnvironment},
    {"kubectl gpuforensics", "collect", kPluginCollectExamples, kPluginEnvironment},
};

}  // namespace

const CommandPageExtras* PageExtras(std::string_view program, std::string_view command) {
  for (const auto& p : kPages) {
    if (p.program == program && p.command == command) return &p;
  }
  return nullptr;
}

}  // namespace gpuf
