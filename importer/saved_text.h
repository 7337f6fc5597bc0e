// A command output as a person saved or pasted it: the output's lines, and
// around them what the person added - the shell prompt and the command
// ("root@node4:~# dmesg -T |grep NVRM", "(container) $ nvidia-smi -L",
// "k describe po hami-device-plugin-tp8b9"), elision lines ("....",
// "..."), their own markers ("----------------- content begin -------"), a
// grep separator ("--"), a stray backtick.
//
// CleanSavedText keeps the output and says what it dropped, and what the
// text itself says about where the command ran (item "view"): a prompt whose
// host is a container id (12 or 64 hex digits), a "(container)"/"(host)"
// label, or a `kubectl exec` / `crictl exec` / `docker exec` command.
// Nothing here guesses: without such a sign the view is empty.
#ifndef GPUF_IMPORTER_SAVED_TEXT_H_
#define GPUF_IMPORTER_SAVED_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

enum class View { kUnknown, kHost, kContainer };

std::string_view ViewName(View view);  // "unknown" | "host" | "container"

struct ViewSign {
  View view = View::kUnknown;
  std::string why;  // "prompt root@098b49afe624 (a container id)", "file name 'smi-plugin.txt'", ""
};

struct SavedText {
  std::string text;                   // the output lines, in order, each ending in '\n'
  std::vector<std::string> commands;  // the commands found on prompt lines, as typed
  std::vector<std::string> dropped;   // every dropped line, as it was
  ViewSign view;                      // from the text alone
  std::string first_line;             // the first non-blank output line, trimmed (else the first line)
};

SavedText CleanSavedText(std::string_view text);

// A transcript of several commands and their outputs ("cmd: hostnamectl",
// output, "cmd: nvidia-smi", output): one piece per command that printed
// something, each cleaned as above; a text of one output gives one piece.
struct SavedPiece {
  std::string command;  // the command before it, "" for output before any command
  std::string text;     // the original lines of this piece, its command line first
};

std::vector<SavedPiece> SplitTranscript(std::string_view text);

// The command of a prompt line ("dmesg -T |grep NVRM" for
// "root@node4:~# dmesg -T |grep NVRM"), or "" when the line is no prompt.
std::string PromptCommand(std::string_view line);

// What a file's name says about where its command ran: "host-nvidia-smi-L.txt",
// "smi-plugin.txt", "nvidia-smi-in-container.txt".
ViewSign ViewFromFileName(std::string_view file_name);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_SAVED_TEXT_H_
