// The shapes of saved command outputs a folder of evidence may hold, as a
// table: what each looks like, which logical artifact it becomes, and how
// its text is converted (importer/artifact_map.h). docs/inputs.md lists the
// same rows with a real line of each.
//
// A file is recognised on its output lines (importer/saved_text.h: prompts,
// command lines and elisions are dropped first), never on its first line
// alone: a document shape (a `kubectl describe`, an `nvidia-smi` table, a
// `systemctl status`) by what it contains, a line shape (dmesg, journal,
// klog...) by most of its first lines. Unrecognised is an answer too: the
// coverage of the report then quotes the file's first line.
#ifndef GPUF_IMPORTER_INPUT_SHAPES_H_
#define GPUF_IMPORTER_INPUT_SHAPES_H_

#include <string>
#include <string_view>
#include <vector>

#include "importer/artifact_map.h"
#include "importer/saved_text.h"

namespace gpuf {

// Where the artifact's view comes from.
enum class ShapeView {
  kHost,      // by nature the node's: a kernel log, a journal, systemctl
  kApi,       // the API server's: kubectl get / describe
  kContainer, // by nature a container's: a cgroup's devices.list, a pod's log
  kAsSaved,   // nvidia-smi: the prompt, a label or the file name decides, else unknown
};

struct InputShape {
  std::string_view id;           // "dmesg -T": names the shape in coverage and docs
  std::string_view line;         // RE2 one output line matches; "" for a document shape
  bool (*document)(std::string_view text);  // document shapes: true when the text is one
  std::string_view artifact;     // logical name; "" when the conversion or the view decides
  Conversion conversion;
  ShapeView view;
  std::string_view unread;       // recognised but read into nothing: why ("" when read)
};

// Every shape, in the order they are tried (document shapes first).
const std::vector<InputShape>& InputShapes();

struct Recognised {
  const InputShape* shape = nullptr;  // nullptr: not recognised
  SavedText saved;                    // the output without prompts and elisions
  ViewSign view;                      // for kAsSaved shapes: text, then file name; else the shape's
  int lines_matched = 0;              // line shapes: output lines of the shape
  int lines_considered = 0;
};

Recognised RecogniseInput(std::string_view text, std::string_view file_name);

// A klog, Go-log or container log as the device plugin, the kubelet or
// libnvidia-container wrote it: which one, by the source files its klog
// headers name and its thread id (the kubelet logs its host PID, a plugin in
// a pod PID 1). "plugin", "kubelet", "toolkit" or "" when it says nothing.
std::string KlogWriter(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_INPUT_SHAPES_H_
