// Status and Result<T>: the error values that cross every module boundary.
//
// A Status is either OK or carries a code and a two-part message, in the
// style "reading 'manifest.json': unexpected end of input". Only main turns a
// Status into text on stderr and an exit code (see exit_codes.h).
#ifndef GPUF_COMMON_STATUS_H_
#define GPUF_COMMON_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpuf {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // the caller's words are off (usage, bad option value)
    kNotFound,         // a named file or member is absent
    kBadInput,         // input exists but is malformed (not a bundle, bad JSON)
    kUnsupported,      // well-formed but newer than we understand
    kExists,           // an output path exists, or is not a regular file we may replace
    kIoError,          // the operating system refused (open, write, rename)
    kInternal,         // a library failed in a way we did not expect
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kInvalidArgument, what, detail);
  }
  static Status NotFound(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kNotFound, what, detail);
  }
  static Status BadInput(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kBadInput, what, detail);
  }
  static Status Unsupported(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kUnsupported, what, detail);
  }
  static Status Exists(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kExists, what, detail);
  }
  static Status IoError(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kIoError, what, detail);
  }
  static Status Internal(std::string_view what, std::string_view detail = {}) {
    return Status(Code::kInternal, what, detail);
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes context, e.g. Status::BadInput("x").WithContext("reading 'b.tar.zst'")
  // gives "reading 'b.tar.zst': x".
  Status WithContext(std::string_view context) const {
    if (ok()) return *this;
    Status s = *this;
    s.message_ = std::string(context) + ": " + message_;
    return s;
  }

 private:
  Status(Code code, std::string_view what, std::string_view detail) : code_(code) {
    message_ = std::string(what);
    if (!detail.empty()) message_ += ": " + std::string(detail);
  }

  Code code_ = Code::kOk;
  std::string message_;
};

// Result<T> holds a T or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "Result needs a value or an error");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace gpuf

#define GPUF_CONCAT_INNER(a, b) a##b
#define GPUF_CONCAT(a, b) GPUF_CONCAT_INNER(a, b)

#define GPUF_RETURN_IF_ERROR(expr)              \
  do {                                          \
    ::gpuf::Status gpuf_status_ = (expr);       \
    if (!gpuf_status_.ok()) return gpuf_status_; \
  } while (0)

#define GPUF_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

#define GPUF_ASSIGN_OR_RETURN(lhs, expr) \
  GPUF_ASSIGN_OR_RETURN_IMPL(GPUF_CONCAT(gpuf_result_, __LINE__), lhs, expr)

#endif  // GPUF_COMMON_STATUS_H_
