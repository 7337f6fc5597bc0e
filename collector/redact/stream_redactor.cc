#include "collector/redact/stream_redactor.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "collector/secrets.h"
#include "common/file_io.h"

namespace gpuf {

namespace {

bool Contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool OpensPrivateKey(std::string_view line) {
  return Contains(line, "-----BEGIN ") && Contains(line, "PRIVATE KEY-----") && !Contains(line, "-----END ");
}

}  // namespace

Status StreamRedactor::Write(std::string_view bytes) {
  if (bytes.empty()) return Status::Ok();
  if (std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size()) {
    return Status::IoError("writing a redacted stream", std::strerror(errno));
  }
  hash_.Update(bytes);
  size_ += static_cast<int64_t>(bytes.size());
  return Status::Ok();
}

Status StreamRedactor::Emit(std::string line, bool newline) {
  bool crlf = !line.empty() && line.back() == '\r';
  if (crlf) line.pop_back();
  const std::string ending = newline ? (crlf ? "\r\n" : "\n") : (crlf ? "\r" : "");
  if (in_private_key_) {
    if (!Contains(line, "-----END ")) return Status::Ok();  // the key's body never leaves
    in_private_key_ = false;
    line = "-----BEGIN PRIVATE KEY-----" + std::string(kRedacted) + "-----END PRIVATE KEY-----";
    ++(*counts_)["secret"];
    line += ending;
    return Write(line);
  }
  if (!redactor_->secrets_enabled()) return Redacted(std::move(line), ending);
  if (OpensPrivateKey(line)) {
    in_private_key_ = true;
    return ReleaseEnv();  // what came before the key leaves before its marker
  }
  // Env values span lines (name, then value, or value first): one stream of them per file.
  Status written;
  int n = env_.Line(std::move(line), ending, [&](std::string& scrubbed, const std::string& end) {
    if (written.ok()) written = Redacted(std::move(scrubbed), end);
  });
  if (n > 0) (*counts_)["secret"] += n;
  return written;
}

Status StreamRedactor::ReleaseEnv() {
  Status written;
  int n = env_.Finish([&](std::string& scrubbed, const std::string& end) {
    if (written.ok()) written = Redacted(std::move(scrubbed), end);
  });
  if (n > 0) (*counts_)["secret"] += n;
  return written;
}

Status StreamRedactor::Redacted(std::string line, const std::string& ending) {
  redactor_->RedactLine(line, *counts_);
  line += ending;
  return Write(line);
}

Status StreamRedactor::Feed(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t newline = bytes.find('\n');
    std::string_view part = bytes.substr(0, newline);
    size_t room = kMaxRedactedLineBytes - std::min(partial_.size(), kMaxRedactedLineBytes);
    if (part.size() > room) cut_ = true;
    partial_.append(part.substr(0, room));
    if (newline == std::string_view::npos) return Status::Ok();
    bytes.remove_prefix(newline + 1);
    std::string line;
    line.swap(partial_);
    if (cut_) line += kCutLineMarker;
    cut_ = false;
    GPUF_RETURN_IF_ERROR(Emit(std::move(line), true));
  }
  return Status::Ok();
}

Status StreamRedactor::Finish() {
  if (in_private_key_) {  // a key block without its end: still nothing of it leaves
    in_private_key_ = false;
    ++(*counts_)["secret"];
    GPUF_RETURN_IF_ERROR(Write("-----BEGIN PRIVATE KEY-----" + std::string(kRedacted) + "\n"));
  }
  if (!partial_.empty()) {
    std::string line;
    line.swap(partial_);
    if (cut_) line += kCutLineMarker;
    cut_ = false;
    GPUF_RETURN_IF_ERROR(Emit(std::move(line), false));
  }
  GPUF_RETURN_IF_ERROR(ReleaseEnv());
  if (std::fflush(out_) != 0) return Status::IoError("writing a redacted stream", std::strerror(errno));
  return Status::Ok();
}

Result<RedactedFile> RedactFile(TextRedactor* redactor, const std::string& in, const std::string& out,
                                RedactionCounts* counts) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(out.c_str(), "wbex"), std::fclose);
  if (!file) return Status::IoError("creating '" + out + "'", std::strerror(errno));
  StreamRedactor stream(redactor, file.get(), counts);
  Status fed = Status::Ok();
  GPUF_RETURN_IF_ERROR(ForEachChunk(in, [&](std::string_view chunk) {
    if (fed.ok()) fed = stream.Feed(chunk);
  }));
  GPUF_RETURN_IF_ERROR(fed);
  GPUF_RETURN_IF_ERROR(stream.Finish());
  if (std::fclose(file.release()) != 0) return Status::IoError("closing '" + out + "'", std::strerror(errno));
  return RedactedFile{stream.size_bytes(), stream.sha256()};
}

}  // namespace gpuf
