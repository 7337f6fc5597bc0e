// The functions that turn one stored stream into rows. Each takes the
// artifact's id, its manifest record and the bytes; each is listed once, by
// id, in the table in loader.cc, and the artifact table
// (common/artifacts.cc) names the ids that read each artifact.
#ifndef GPUF_ANALYZER_LOAD_MEMBER_LOADERS_H_
#define GPUF_ANALYZER_LOAD_MEMBER_LOADERS_H_

#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "analyzer/journal/journal_line_loader.h"
#include "analyzer/load/load_context.h"
#include "formats/journal_event.h"
#include "formats/journal_json.h"
#include "formats/plugin_log.h"

namespace gpuf {

using MemberLoader = void (*)(LoadContext& ctx, const MemberInput& in);

// A member read a line at a time as it streams out of the bundle, for the
// large ones (journal slices, pod logs) that are never held whole. The lines
// are parsed on the caller's thread; with `threaded`, a worker stores the
// rows meanwhile, and the database is the worker's until End returns.
class StreamedLineLoader {
 public:
  virtual ~StreamedLineLoader() = default;
  virtual void Line(int number, std::string_view line) = 0;
  // After the last line: every row stored, and what was gathered across lines.
  virtual void End() = 0;
};
using StreamedLoaderFactory = std::unique_ptr<StreamedLineLoader> (*)(LoadContext& ctx, const MemberInput& in,
                                                                      bool threaded);
// Below this size a member's rows are stored on the reading thread (not
// `threaded`): a fleet of small bundles spent more on threads than it saved.
inline constexpr int64_t kThreadedMemberBytes = 1 << 20;

struct MemberLoaderRow {
  std::string_view id;
  std::initializer_list<std::string_view> reads;  // the artifacts it reads, by name
  std::initializer_list<std::string_view> writes;  // the tables it fills
  MemberLoader load;
  bool stderr_too = false;   // also called with the artifact's stderr
  // Called once with stdout in `bytes` and stderr in `stderr_bytes`, when
  // both have been read, in whichever order the archive holds them (or at
  // the end, with what there was).
  bool with_stderr = false;
  // Called after every other member was loaded: it reads what they stored.
  bool after_all = false;
  // Writes the artifact's lines as journal_entries rows (a journal slice,
  // and the logs read as journal lines where the journal lacks them).
  bool journal_entries = false;
  // Reads the member as it streams (in.bytes empty), instead of `load` with
  // the whole text, when it is the artifact's only loader and its lines are
  // not kept in artifact_lines.
  StreamedLoaderFactory stream = nullptr;
};

std::span<const MemberLoaderRow> MemberLoaderTable();
// The loader `id`, or nullptr.
const MemberLoaderRow* FindMemberLoader(std::string_view id);
// Whether `loader` reads the artifact `name`.
bool LoaderReads(const MemberLoaderRow& loader, std::string_view name);
// Whether `loader` fills the table `table`.
bool LoaderWrites(const MemberLoaderRow& loader, std::string_view table);
// Whether a loader of artifact `name` writes its lines as journal entries,
// so that they are read from journal_entries, not artifact_lines.
bool LoadsJournalEntries(std::string_view name);

// load_host.cc
void LoadNvidiaSmiList(LoadContext& ctx, const MemberInput& in);
void LoadNvidiaSmiXml(LoadContext& ctx, const MemberInput& in);
// An nvidia-smi run (nvidia_smi_runs), of `nvidia-smi -L` or of `-q -x`.
// One nvidia-smi run (-L, -q -x or its table): how it ended, into nvidia_smi_runs.
void LoadNvidiaSmiRun(LoadContext& ctx, const MemberInput& in);
void LoadDriverVersion(LoadContext& ctx, const MemberInput& in);
void LoadDriverGpu(LoadContext& ctx, const MemberInput& in);
void LoadProcDevices(LoadContext& ctx, const MemberInput& in);
// load_runtime.cc
void LoadContainerGpuView(LoadContext& ctx, const MemberInput& in);
void LoadCrictlPs(LoadContext& ctx, const MemberInput& in);
void LoadCrictlInspect(LoadContext& ctx, const MemberInput& in);
void LoadCtrContainerInfo(LoadContext& ctx, const MemberInput& in);
void LoadDevicesList(LoadContext& ctx, const MemberInput& in);
void LoadBpfDeviceProgram(LoadContext& ctx, const MemberInput& in);
void LoadSystemdScope(LoadContext& ctx, const MemberInput& in);
void LoadBpftoolCgroup(LoadContext& ctx, const MemberInput& in);
void LoadProcCgroup(LoadContext& ctx, const MemberInput& in);
void LoadMountinfo(LoadContext& ctx, const MemberInput& in);
void LoadStatfs(LoadContext& ctx, const MemberInput& in);
void LoadStaticPod(LoadContext& ctx, const MemberInput& in);
// load_config.cc
void LoadContainerdConfig(LoadContext& ctx, const MemberInput& in);
void LoadCrioConfig(LoadContext& ctx, const MemberInput& in);
void LoadNvidiaRuntimeConfig(LoadContext& ctx, const MemberInput& in);
void LoadKubeletConfig(LoadContext& ctx, const MemberInput& in);
void LoadKubeletCheckpoint(LoadContext& ctx, const MemberInput& in);
void LoadCrictlInfo(LoadContext& ctx, const MemberInput& in);
void LoadVersions(LoadContext& ctx, const MemberInput& in);
// load_kube.cc
void LoadKubeEvents(LoadContext& ctx, const MemberInput& in);
void LoadKubeMetrics(LoadContext& ctx, const MemberInput& in);
void LoadKubeCluster(LoadContext& ctx, const MemberInput& in);
void LoadKubeDaemonSet(LoadContext& ctx, const MemberInput& in);
void LoadKubePodText(LoadContext& ctx, const MemberInput& in);
void LoadKubePods(LoadContext& ctx, const MemberInput& in);
void LoadKubeNodeText(LoadContext& ctx, const MemberInput& in);
// load_logs.cc
void LoadPluginLogFile(LoadContext& ctx, const MemberInput& in);
std::unique_ptr<StreamedLineLoader> NewPluginLogLoader(LoadContext& ctx, const MemberInput& in, bool threaded);
void LoadCrictlLogs(LoadContext& ctx, const MemberInput& in);
void LoadPciTable(LoadContext& ctx, const MemberInput& in);
void LoadDeviceNodes(LoadContext& ctx, const MemberInput& in);
void LoadCharLinks(LoadContext& ctx, const MemberInput& in);
void LoadPluginSockets(LoadContext& ctx, const MemberInput& in);
void LoadSystemdUnits(LoadContext& ctx, const MemberInput& in);
void LoadNodeResources(LoadContext& ctx, const MemberInput& in);
void LoadJournal(LoadContext& ctx, const MemberInput& in);
std::unique_ptr<StreamedLineLoader> NewJournalLoader(LoadContext& ctx, const MemberInput& in, bool threaded);
// A journal entry of the plugin run as a host service (kPluginJournalSlice),
// as a log_lines row like a pod log's: the plugin's lines are its log.
void StorePluginJournalLine(LoadContext& ctx, const MemberInput& in, int line, const JournalEntry& entry);
void LoadArtifactLines(LoadContext& ctx, const MemberInput& in);
// load_kernel_ring.cc
void LoadKernelRing(LoadContext& ctx, const MemberInput& in);
// load_kubelet_log.cc
void LoadKubeletLog(LoadContext& ctx, const MemberInput& in);

// The writers under the loaders, for what writes as if it had read a
// bundle (rule samples, sample_fixture.h).
// The bundles row of `m`; fails when the database does.
Result<int64_t> InsertBundleRow(Database& db, const std::string& path, const Manifest& m);
// The artifacts row of `a` and its artifact_outputs rows; the artifact's id.
int64_t InsertArtifactRow(LoadContext& ctx, const ManifestArtifact& a);
// One line the device plugin wrote, as log_lines holds it.
void StorePluginLogLine(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        int line, std::optional<int64_t> time_ns, std::string_view stream, const PluginLine& text);
// The configurations the plugin printed ("Running with config:") among its
// messages, as plugin_config rows; a dump that is cut short is a warning.
void StorePluginConfigs(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                        const std::vector<LogMessage>& lines);
// The same for dumps already found.
void StorePluginConfigScan(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                           const PluginConfigScan& scan);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_MEMBER_LOADERS_H_
