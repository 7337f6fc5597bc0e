// Paging a long report on a terminal, as git and systemctl do, so that the
// verdict at its top is not scrolled away by the coverage at its bottom.
// The pager is $GPUFORENSICS_PAGER, else $PAGER, else "less"; LESS is set
// to FRX when unset (one screen prints and returns, colours pass, the text
// stays on the screen after quitting). "" or "cat" turn paging off, as
// does --no-pager, and a pager that is not installed.
#ifndef GPUF_CLI_PAGER_H_
#define GPUF_CLI_PAGER_H_

namespace gpuf {

// Sends what is written to stdout from now on through the pager, when
// `wanted` and stdout is a terminal. Data escapes are the caller's to
// neutralise (TerminalSafe) before writing.
void StartPager(bool wanted);

// Whether stdout goes to a pager: a closed pipe then means the reader
// quit, which is no error.
bool PagerActive();

// Closes stdout, the pager's input, and waits for the pager to end
// (FinishStdout calls it once stdout is flushed).
void WaitForPager();

}  // namespace gpuf

#endif  // GPUF_CLI_PAGER_H_
