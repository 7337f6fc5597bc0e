#include "kube/kubectl_runner.h"

#include <cstdio>

#include "collector/capped_file.h"
#include "collector/subprocess.h"
#include "common/file_io.h"

namespace gpuf {

namespace {

// What a kubectl call that did not succeed tells.
Status Failure(const CommandOutcome& outcome, const std::string& err) {
  if (!outcome.started) return Status::IoError("kubectl did not start", outcome.start_error);
  if (outcome.interrupted) return Status::IoError("interrupted");
  if (outcome.timed_out) return Status::IoError("deadline passed");
  std::string last = LastLine(err);
  if (last.empty()) {
    last = outcome.exit_code ? "kubectl exited " + std::to_string(*outcome.exit_code)
                             : "kubectl ended by signal " + std::to_string(outcome.signal.value_or(0));
  }
  return Status::IoError(last);
}

}  // namespace

std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \r\n");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

KubectlRunner::KubectlRunner(std::string executable, std::vector<std::string> global_args, std::string work_dir)
    : executable_(std::move(executable)), global_args_(std::move(global_args)), work_dir_(std::move(work_dir)) {}

std::string KubectlRunner::NextCapturePath() const {
  return work_dir_ + "/call-" + std::to_string(calls_.fetch_add(1));
}

Status KubectlRunner::ToFile(const std::vector<std::string>& args, const std::string& path, int64_t cap_bytes,
                             int64_t deadline_ns, const std::atomic<bool>* interrupt, std::string& err,
                             const std::string& stdin_path) const {
  CommandSpec spec;
  spec.executable = executable_;
  if (!stdin_path.empty()) spec.stdin_path = stdin_path;
  spec.argv = {"kubectl"};
  spec.argv.insert(spec.argv.end(), global_args_.begin(), global_args_.end());
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.deadline_monotonic_ns = deadline_ns;
  const std::string err_path = NextCapturePath() + ".err";
  CappedFile out(path, cap_bytes, KeepMode::kHead);
  CappedFile errors(err_path, kTextCapBytes, KeepMode::kTail);
  GPUF_RETURN_IF_ERROR(out.Open());
  GPUF_RETURN_IF_ERROR(errors.Open());
  CommandOutcome outcome = RunCommand(spec, out, errors, interrupt);
  Status finished = out.Finish();
  (void)errors.Finish();
  auto err_text = ReadWholeFile(err_path);
  err = err_text.ok() ? *err_text : "";
  std::remove(err_path.c_str());
  if (!(outcome.exit_code && *outcome.exit_code == 0)) return Failure(outcome, err);
  if (!finished.ok()) return finished;
  if (out.truncated()) return Status::IoError("kubectl printed more than " + std::to_string(cap_bytes) + " bytes");
  return Status::Ok();
}

Result<std::string> KubectlRunner::Output(const std::vector<std::string>& args, int64_t deadline_ns,
                                          const std::atomic<bool>* interrupt, int64_t cap_bytes) const {
  const std::string path = NextCapturePath() + ".out";
  std::string err;
  Status status = ToFile(args, path, cap_bytes, deadline_ns, interrupt, err);
  auto text = status.ok() ? ReadWholeFile(path) : Result<std::string>(status);
  std::remove(path.c_str());
  return text;
}

}  // namespace gpuf
