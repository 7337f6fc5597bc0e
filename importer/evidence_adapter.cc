// A folder of outputs saved by hand ("smi.txt", "describe-pod.txt",
// "dmesg.txt"): names are whatever the person chose, so each file is
// recognised by what it holds (importer/input_shapes.h); where the content
// cannot say where a command ran, the prompt, a label or the file name does,
// else the view stays unknown. Every file gets a line in the report's
// coverage, read or not.
//
// How it works:
//   1. recognise every file (prompts and elisions dropped first);
//   2. take the time facts first: the zone (date -R, timedatectl, or a
//      journal's containerd lines), the boot's start (uptime -s), the year;
//   3. convert each file by its shape, noting what it became;
//   4. dmesg last: a journal text's kernel lines are kept over dmesg's.
#include <re2/re2.h>

#include <algorithm>
#include <map>

#include "collector/secrets.h"
#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/boot_list.h"
#include "importer/conversions.h"
#include "importer/input_shapes.h"
#include "importer/journal_text.h"
#include "importer/locale_months.h"
#include "importer/saved_outputs.h"
#include "importer/systemctl_status.h"

namespace gpuf {

namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The short id of the one running device-plugin container in a crictl table.
std::string RunningPluginId(const std::string& table) {
  std::string id;
  int found = 0;
  ForEachLine(table, [&](int, std::string_view line) {
    if (line.find(" Running ") != std::string_view::npos && MentionsDevicePlugin(line)) {
      id = std::string(line.substr(0, line.find(' ')));
      ++found;
    }
  });
  return found == 1 ? id : "";
}

// The unit a saved journal text is about, from its name ("kubelet.log").
std::string UnitFromName(const std::string& name) {
  for (std::string_view unit : {"nvidia-persistenced", "nvidia-fabricmanager", "kubelet", "containerd"}) {
    if (name.find(unit) != std::string::npos) return std::string(unit) + ".service";
  }
  return "";
}

// A line of the input quoted into the manifest: cut to 100 bytes and
// scrubbed like every stored text (a token in a pasted line stays out).
std::string Quote(std::string_view line) {
  std::string q(line.substr(0, 100));
  ScrubText(q);
  if (line.size() > 100) q += "...";
  return "`" + q + "`";
}

// "echo $?" after a command: a lone number as the last line is its exit status.
std::optional<int> EchoedExitCode(const std::string& text) {
  std::string last;
  ForEachLine(text, [&](int, std::string_view line) {
    if (!Trim(line).empty()) last = std::string(Trim(line));
  });
  static const RE2 number(R"(\d{1,3})", BytePatternOptions());
  int code = 0;
  if (RE2::FullMatch(last, number, &code)) return code;
  return std::nullopt;
}

struct File {
  std::string path;
  std::string original;  // the file, or one command's part of a transcript
  Recognised recognised;
  InputFileRecord record;
};

// The names whose bytes a conversion added to or changed.
class Changes {
 public:
  explicit Changes(const ImportPlan& plan) : plan_(plan) {
    for (const auto& a : plan.artifacts) before_[a.name + "[" + a.instance + "]"] = a.bytes.size();
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& a : plan_.artifacts) {
      auto it = before_.find(a.name + "[" + a.instance + "]");
      if ((it == before_.end() || it->second != a.bytes.size()) &&
          std::find(names.begin(), names.end(), a.name) == names.end()) {
        names.push_back(a.name);
      }
    }
    return names;
  }

 private:
  const ImportPlan& plan_;
  std::map<std::string, size_t> before_;
};

std::string ViewNote(const Recognised& r) {
  if (r.shape == nullptr || r.shape->view != ShapeView::kAsSaved) return "";
  if (r.view.view == View::kUnknown) return "where it ran is unknown: nothing in the text or its name says";
  return std::string(ViewName(r.view.view)) + " view: " + r.view.why;
}

std::string DroppedNote(const SavedText& saved) {
  if (saved.dropped.empty()) return "";
  std::string note = std::to_string(saved.dropped.size()) + (saved.dropped.size() == 1 ? " line" : " lines") +
                     " not output (prompt, command or elision): " + Quote(saved.dropped.front());
  return note;
}

void Join(std::string& to, const std::string& what) {
  if (what.empty()) return;
  if (!to.empty()) to += "; ";
  to += what;
}

// nvidia-smi's outputs under the name of their view: a container's view is
// filed with the device plugin's (a GPU container's nvidia-smi shows the
// same device cgroup question), an unknown view as saved.*.
std::string SmiName(View view, bool table) {
  std::string prefix = view == View::kHost ? "host." : view == View::kContainer ? "plugin." : "saved.";
  return prefix + (table ? "nvidia_smi" : "nvidia_smi_list");
}

constexpr int64_t kHalfYearNs = 183LL * 86400 * 1000000000;

// The newest time a line prints with its year, read as UTC: at the line's
// start ("2017/11/24 09:06:24 ...", "2024-08-09T13:32:51.87Z ..."), or
// anywhere as ctime prints it ("[Tue Mar 11 02:14:07 2025]" of dmesg -T,
// nvidia-smi's "Timestamp : Tue Mar 11 02:36:12 2025", date's "... UTC
// 2025"); nullopt when no line does.
std::optional<int64_t> NewestDatedLine(const std::vector<File>& files) {
  static const RE2 dated(R"((?m)^(?:\[[^\]\n]*\] )?(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d):(\d\d):(\d\d))",
                         BytePatternOptions());
  std::optional<int64_t> newest;
  auto keep = [&](std::optional<int64_t> ns) {  // nullopt for an impossible date
    if (ns && (!newest || *ns > *newest)) newest = ns;
  };
  for (const auto& f : files) {
    re2::StringPiece input(f.recognised.saved.text);
    int year, month, day, hour, minute, second;
    while (RE2::FindAndConsume(&input, dated, &year, &month, &day, &hour, &minute, &second)) {
      keep(UnixNsFromUtcCivil(year, month, day, hour, minute, second));
    }
    for (int64_t ns : CtimesAsUtc(f.recognised.saved.text)) keep(ns);
  }
  return newest;
}

// The boot a saved journalctl command asked for: -1 for `journalctl -k -b
// -1` (or --boot=-1, -b-1), 0 for none or the current one.
int BootOffsetOf(std::string_view command) {
  static const RE2 boot(R"(\bjournalctl\b.*?(?:\s-\w*b|\s--boot)(?:=|\s*)(-[0-9]+)\b)", BytePatternOptions());
  int offset = 0;
  if (RE2::PartialMatch(command, boot, &offset)) return offset;
  return 0;
}

// The oldest or newest __REALTIME_TIMESTAMP (µs) of journal export lines.
std::optional<int64_t> RealtimeBound(std::string_view json, bool newest) {
  static const RE2 stamp(R"re("__REALTIME_TIMESTAMP":"(\d+)")re", BytePatternOptions());
  re2::StringPiece input(json.data(), json.size());
  std::optional<int64_t> bound;
  int64_t us = 0;
  while (RE2::FindAndConsume(&input, stamp, &us)) {
    if (!bound || (newest ? us > *bound : us < *bound)) bound = us;
  }
  return bound;
}

// A kernel journal text wholly older than the boot a dmesg beside it shows
// is an earlier boot's (`journalctl -k -b -1`): its artifacts move to
// boot:-1, and the caller reads the dmesg as the boot at capture. False,
// and nothing changed, when the times do not say so.
bool MoveJournalBeforeBoot(std::string_view dmesg, const TimeHints& hints, ImportPlan& plan, std::vector<File>& files) {
  ImportPlan scratch;
  ApplyConversion({"journal.kernel", Conversion::kDmesg, "boot:0", "", "", dmesg, ""}, hints, scratch);
  std::optional<int64_t> boot_seen;
  for (const auto& a : scratch.artifacts) {
    if (a.name == artifact::kJournalKernel) boot_seen = RealtimeBound(a.bytes, false);
  }
  std::string source;
  std::optional<int64_t> journal_last;
  for (const auto& a : plan.artifacts) {
    if (a.name != artifact::kJournalKernel || a.instance != "boot:0") continue;
    source = a.source_file;
    journal_last = RealtimeBound(a.bytes, true);
  }
  if (!boot_seen || !journal_last || *journal_last >= *boot_seen) return false;
  for (auto& a : plan.artifacts) {
    if (a.source_file == source && a.instance == "boot:0") a.instance = "boot:-1";
  }
  for (auto& f : files) {
    if (f.path == source) Join(f.record.note, "an earlier boot's: every line is older than the boot the dmesg shows");
  }
  return true;
}

}  // namespace

ImportPlan ImportEvidenceDir(const SourceTree& tree, const std::string& source_name) {
  ImportPlan plan;
  plan.kind = "evidence-dir";
  plan.source_name = source_name;
  std::vector<File> files;
  for (const auto& path : tree.Paths()) {
    auto text = tree.Find(path);
    if (!text.ok()) {
      InputFileRecord record;
      record.path = path;
      record.not_read = "not read: " + text.status().message();
      plan.inputs.push_back(record);
      continue;
    }
    plan.captured_at_ns = std::max(plan.captured_at_ns, tree.mtime_ns(path));
    // A transcript of several commands: each output on its own.
    std::vector<SavedPiece> pieces = SplitTranscript(**text);
    pieces.erase(std::remove_if(pieces.begin(), pieces.end(),
                                [](const SavedPiece& p) { return Trim(CleanSavedText(p.text).text).empty(); }),
                 pieces.end());
    if (pieces.size() < 2) pieces = {{"", **text}};
    for (size_t i = 0; i < pieces.size(); ++i) {
      SavedPiece& piece = pieces[i];
      File f{path, std::move(piece.text), {}, {}};
      if (pieces.size() > 1) {
        f.record.path = path + " [" + std::to_string(i + 1) + "/" + std::to_string(pieces.size()) + "]" +
                        (piece.command.empty() ? "" : " " + Quote(piece.command));
      } else {
        f.record.path = path;
      }
      f.recognised = RecogniseInput(f.original, BaseName(path));
      files.push_back(std::move(f));
    }
  }
  auto is = [](const File& f, const char* id) { return f.recognised.shape && f.recognised.shape->id == id; };

  // Time facts first: the zone, then the boot's start, then the year.
  std::optional<int> offset;
  for (auto& f : files) {
    if (!is(f, "date -R / timedatectl") || offset) continue;
    offset = UtcOffsetFromDateText(f.recognised.saved.text);
    f.record.read_as = f.recognised.shape->id;
    f.record.note = offset ? "the node's zone for the other files" : "no zone offset in it";
  }
  for (const auto& f : files) {
    if (is(f, "journal or syslog text") && !offset) offset = InferUtcOffsetFromJournal(f.recognised.saved.text);
  }
  plan.utc_offset_seconds = offset.value_or(0);
  TimeHints hints;
  hints.utc_offset_seconds = plan.utc_offset_seconds;
  for (const auto& f : files) {
    if (!is(f, "uptime -s")) continue;
    if (auto boot = ParseUptimeSince(f.recognised.saved.text, plan.utc_offset_seconds)) hints.boot_start_ns = *boot;
  }
  // The boot list: the current boot's first entry is its start where uptime
  // -s did not say (journal lines older than it are an earlier boot's), and
  // its last entry when the list was taken, which dates the yearless lines
  // beside it (up to half a year after) better than the files' mtime.
  for (const auto& f : files) {
    if (!is(f, "journalctl --list-boots")) continue;
    auto boots = ParseBootList(f.recognised.saved.text, plan.utc_offset_seconds);
    auto current = boots.find(0);
    if (current == boots.end()) continue;
    if (hints.boot_start_ns == 0) hints.boot_start_ns = current->second.start_ns;
    if (int64_t listed = current->second.last_ns; listed > 0 && listed < plan.captured_at_ns) {
      hints.not_after_ns = std::min(plan.captured_at_ns, listed + kHalfYearNs);
    }
  }
  hints.year = YearOf(hints.boot_start_ns > 0 ? hints.boot_start_ns : plan.captured_at_ns);
  if (hints.not_after_ns == 0) hints.not_after_ns = plan.captured_at_ns;
  // Files saved long after the outputs were printed: a line that prints its
  // own year dates the yearless ones beside it better than the files' mtime,
  // each in the year that puts it nearest (up to half a year after it).
  if (auto dated = NewestDatedLine(files); dated && hints.boot_start_ns == 0 && *dated < hints.not_after_ns) {
    hints.not_after_ns = std::min(hints.not_after_ns, *dated + kHalfYearNs);
    hints.year = YearOf(*dated);
  }
  const char* zone_note = offset ? "" : "local times read as UTC (no date -R or timedatectl beside it)";

  std::string plugin_id;
  for (const auto& f : files) {
    if (is(f, "crictl ps -a")) plugin_id = RunningPluginId(f.recognised.saved.text);
  }
  for (auto& f : files) {
    const Recognised& r = f.recognised;
    InputFileRecord& rec = f.record;
    std::string name = BaseName(f.path);
    if (r.shape == nullptr) {
      if (Trim(f.original).empty() || r.saved.text.empty()) {
        rec.not_read = Trim(f.original).empty() ? "empty" : "only a command line: " + Quote(r.saved.first_line);
        continue;
      }
      // A kind not told is still read: line by line, for the wordings the
      // message catalogue knows (a failure is recognised by what it says).
      plan.Add({std::string(artifact::kSavedText), f.path, f.path, r.saved.text, "", "", std::nullopt, "unknown"});
      rec.read_as = "text of unknown kind";
      rec.artifacts = {std::string(artifact::kSavedText)};
      rec.note = "not recognised (first line " + Quote(r.saved.first_line) +
                 (r.saved.commands.empty() ? "" : ", output of " + Quote(r.saved.commands.back())) +
                 "): read line by line for known wordings";
      continue;
    }
    if (!rec.read_as.empty()) continue;  // the date, read above
    if (r.shape->conversion == Conversion::kDmesg) continue;  // after the journal texts
    rec.read_as = std::string(r.shape->id);
    if (!r.shape->unread.empty()) {
      rec.not_read = "recognised as " + rec.read_as + ", read into nothing: " + std::string(r.shape->unread);
      continue;
    }
    const std::string& text = r.saved.text;
    Changes changes(plan);
    SourcePiece piece{std::string(r.shape->artifact), r.shape->conversion, "", f.path, "", text,
                      r.saved.commands.empty() ? std::string_view() : std::string_view(r.saved.commands.back())};
    TimeHints file_hints = hints;
    std::string note;
    switch (r.shape->conversion) {
      case Conversion::kJournalText:
        piece.instance = "boot:" + std::to_string(BootOffsetOf(piece.command));
        file_hints.unit = UnitFromName(name);
        Join(note, zone_note);
        Join(note, ApplyConversion(piece, file_hints, plan));
        break;
      case Conversion::kNvidiaSmi: {
        bool table = r.shape->id == std::string_view("nvidia-smi table");
        ImportedArtifact a{SmiName(r.view.view, table), "", f.path, text, "", "", std::nullopt};
        if (r.view.view == View::kUnknown) a.context = "unknown";
        if (r.view.view == View::kContainer) {
          a.instance = plugin_id;
          a.container_id = plugin_id;
          a.context = "container";
        }
        // -L lists only when it succeeded; a table printed in full did too, or says its status after it.
        if (!table && text.find("(UUID: GPU-") != std::string::npos && text.rfind("GPU 0:", 0) == 0) a.exit_code = 0;
        if (table) a.exit_code = EchoedExitCode(text).value_or(0);
        plan.Add(std::move(a));
        Join(note, ViewNote(r));
        break;
      }
      case Conversion::kSmiQuery: {
        ConvertedSmiQuery q = SmiQueryToList(text);
        if (q.gpus == 0) {
          rec.not_read = "recognised as nvidia-smi -q, read into nothing: no GPU field in it (a part of the output)";
          continue;
        }
        if (q.list.rows > 0) {
          ImportedArtifact a{SmiName(r.view.view, false), "", f.path, q.list.text, "", "from nvidia-smi -q", 0};
          if (r.view.view == View::kUnknown) a.context = "unknown";
          plan.Add(std::move(a));
          Join(note, ViewNote(r));
        }
        AddSmiQueryFacts(f.path, text, plan);
        if (q.list.rows == 0) Join(note, "GPU properties only: no GPU UUID in it, so no list of GPUs");
        break;
      }
      case Conversion::kSystemctlStatus: {
        ConvertedStatus status = ConvertSystemctlStatus(text);
        if (status.units > 0) plan.Add({"systemd.units", "", f.path, status.show, "", "from systemctl status"});
        if (!Trim(status.journal_tail).empty()) {
          file_hints.unit = status.first_unit;
          ApplyConversion({"", Conversion::kJournalText, "boot:0", f.path, "", status.journal_tail, ""}, file_hints, plan);
        }
        break;
      }
      case Conversion::kKlogLog: {
        std::string writer = KlogWriter(text);
        if (writer == "kubelet") {
          JournalSplit split = ConvertKlogAsJournal(text, "kubelet", file_hints);
          for (auto& [slice, json] : split.slices) {
            plan.Add({slice, "boot:0", f.path, json, "", split.lines_skipped > 0
                                                                ? std::to_string(split.lines_skipped) + " lines not klog"
                                                                : ""});
          }
          Join(note, "a kubelet's klog, not a device plugin's");
          Join(note, zone_note);
        } else if (writer == "toolkit") {
          plan.Add({"runtime.errors", "", f.path, text, "", "libnvidia-container's log"});
        } else if (writer == "plugin") {
          piece.conversion = Conversion::kPluginLog;
          piece.instance = plugin_id;
          ApplyConversion(piece, file_hints, plan);
        } else {
          // Another pod's log (a driver container's holds the kernel's
          // lines): read line by line for the wordings the catalogue knows.
          // A CRI or `kubectl logs --timestamps` text is one container's.
          const bool one_container = is(f, "CRI log file") || is(f, "kubectl logs --timestamps");
          plan.Add({std::string(artifact::kSavedText), f.path, f.path, text, "", "", std::nullopt,
                    one_container ? "container" : "unknown"});
          Join(note, "not a device plugin's, kubelet's or toolkit's log: read line by line for known wordings");
        }
        break;
      }
      case Conversion::kAsIs:
        // kubectl output keeps its command line: the parser reads `jq` paths from it.
        if (r.shape->artifact.rfind("k8s.", 0) == 0) piece.bytes = f.original;
        if (r.shape->artifact == "plugin.devices_list") {
          ImportedArtifact a{"plugin.devices_list", plugin_id, f.path, text, plugin_id, "", std::nullopt, "container"};
          plan.Add(std::move(a));
          Join(note, "a container's device cgroup (which container, the text does not say)");
          break;
        }
        ApplyConversion(piece, file_hints, plan);
        break;
      case Conversion::kLsListing:
        // A container's /dev is not the node's: no artifact holds it. Else it
        // is read as the node's, and said so when nothing told.
        if (r.shape->view == ShapeView::kAsSaved && r.view.view == View::kContainer) {
          rec.not_read = "recognised as " + rec.read_as + " taken in a container (" + r.view.why +
                         "): no artifact holds a container's /dev";
          continue;
        }
        if (r.shape->view == ShapeView::kAsSaved && r.view.view == View::kUnknown) {
          Join(note, "read as the node's /dev: nothing says it was listed in a container");
        } else {
          Join(note, ViewNote(r));
        }
        ApplyConversion(piece, file_hints, plan);
        break;
      case Conversion::kStaticPod:
        piece.instance = "path";
        piece.host_path = "/etc/kubernetes/manifests/" + name;
        ApplyConversion(piece, file_hints, plan);
        break;
      default:
        ApplyConversion(piece, file_hints, plan);
        break;
    }
    rec.artifacts = changes.Names();
    Join(note, DroppedNote(r.saved));
    rec.note = note;
    if (rec.artifacts.empty() && rec.not_read.empty()) {
      rec.not_read = "recognised as " + rec.read_as + ", but it holds nothing gpuforensics reads";
    }
  }
  // dmesg after the journal texts: their kernel lines are kept over dmesg's.
  // Several dmesg files (two parts of one paste) are read together.
  // Only a journal text of the boot at capture: one saved under `-b -1` leaves that boot's kernel lines to dmesg.
  bool kernel_from_journal = std::any_of(plan.artifacts.begin(), plan.artifacts.end(), [](const ImportedArtifact& a) {
    return a.name == artifact::kJournalKernel && a.instance == "boot:0";
  });
  for (auto& f : files) {
    if (!f.recognised.shape || f.recognised.shape->conversion != Conversion::kDmesg || !f.record.read_as.empty()) {
      continue;
    }
    f.record.read_as = std::string(f.recognised.shape->id);
    if (kernel_from_journal && MoveJournalBeforeBoot(f.recognised.saved.text, hints, plan, files)) {
      kernel_from_journal = false;
    }
    if (kernel_from_journal) {
      f.record.not_read = "a journal text already holds the kernel's lines";
      continue;
    }
    Changes changes(plan);
    std::string unread =
        ApplyConversion({"journal.kernel", Conversion::kDmesg, "boot:0", f.path, "", f.recognised.saved.text, ""}, hints, plan);
    f.record.artifacts = changes.Names();
    std::string note = unread;
    if (f.recognised.shape->id == std::string_view("dmesg -T")) Join(note, zone_note);
    Join(note, DroppedNote(f.recognised.saved));
    f.record.note = note;
  }
  for (auto& f : files) plan.inputs.push_back(std::move(f.record));
  plan.capture_next.push_back("gpuforensics collect on the node, or the commands under \"Cannot tell\"");
  std::sort(plan.inputs.begin(), plan.inputs.end(),
            [](const InputFileRecord& a, const InputFileRecord& b) { return a.path < b.path; });
  return plan;
}

}  // namespace gpuf
