#include "formats/version_strings.h"

#include <re2/re2.h>

#include <memory>

#include "common/text_lines.h"

namespace gpuf {

namespace {

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

struct Banner {
  const char* component;
  const char* regex;  // capture 1: the version; capture 2, when present: a revision
  bool needs_cli_build_lines = false;
};

const Banner kBanners[] = {
    {"containerd", R"(containerd \S+ (\S+)(?: (\S+))?)"},
    {"runc", R"(runc version (\S+))"},
    {"nvidia-ctk", R"(NVIDIA Container Toolkit CLI version (\S+))"},
    {"nvidia-container-runtime-hook", R"(NVIDIA Container Runtime Hook version (\S+))"},
    {"nvidia-container-runtime", R"(NVIDIA Container Runtime version (\S+))"},
    {"nvidia-container-cli", R"(cli-version: (\S+))"},
    {"libnvidia-container", R"(lib-version: (\S+))"},
    // A bare "version:" is too common to trust without the cli's build lines.
    {"nvidia-container-cli", R"(version: (\S+))", true},
    {"kubelet", R"(Kubernetes (v\S+))"},
    {"systemd", R"(systemd (\d{1,9})(?: \(([^)]*)\))?)"},
    {"crictl", R"(crictl version (\S+))"},
    // "crio version 1.29.1", then "Version:" repeating it (1.18 on); from 1.31
    // the whole block follows on the first line: "crio version Version: 1.31.0".
    {"crio", R"(crio version (?:Version:\s*)?(\d\S*))"},
    {"crun", R"(crun version (\S+))"},
};

const std::vector<std::unique_ptr<RE2>>& CompiledBanners() {
  static const std::vector<std::unique_ptr<RE2>> compiled = [] {
    std::vector<std::unique_ptr<RE2>> v;
    for (const Banner& b : kBanners) v.push_back(std::make_unique<RE2>(b.regex, RE2::Latin1));
    return v;
  }();
  return compiled;
}

bool HasCliBuildLines(std::string_view text) {
  return text.find("\nbuild revision: ") != std::string_view::npos ||
         text.find("\nbuild date: ") != std::string_view::npos;
}

// systemd prints its major number and, in parentheses, the package version
// ("252 (252.39-1~deb12u1)"); the package version is the more exact one when
// it agrees with the number.
void ReadSystemd(const std::string& number, const std::string& package, ComponentVersion* c) {
  auto parts = SplitVersion(package);
  if (!package.empty() && parts && std::to_string(parts->major) == number) {
    c->version = package;
    c->parts = *parts;
  } else {
    c->version = number;
    c->parts = *SplitVersion(number);
  }
}

// Adds the component whose banner the line is, if any.
void ReadBanner(int number, std::string_view line, bool cli_build_lines, ParsedVersions* out) {
  const auto& banners = CompiledBanners();
  for (size_t i = 0; i < banners.size(); ++i) {
    const Banner& b = kBanners[i];
    std::string version, second;
    const RE2::Arg a1(&version), a2(&second);
    const RE2::Arg* args[] = {&a1, &a2};
    if (!RE2::FullMatchN(Piece(line), *banners[i], args, banners[i]->NumberOfCapturingGroups())) {
      continue;
    }
    if (b.needs_cli_build_lines && !cli_build_lines) continue;
    ComponentVersion c;
    c.line = number;
    c.component = b.component;
    if (c.component == "systemd") {
      ReadSystemd(version, second, &c);
    } else {
      auto parts = SplitVersion(version);
      if (!parts) {
        out->warnings.push_back({number, std::string(b.component) + " version '" + version +
                                             "' does not start with a number"});
        return;
      }
      c.version = version;
      c.parts = *parts;
      c.revision = second;
    }
    out->components.push_back(std::move(c));
    return;
  }
}

}  // namespace

std::optional<VersionParts> SplitVersion(std::string_view text) {
  static const RE2 version(R"(v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?([^\d].*)?)", RE2::Latin1);
  std::string major, minor, patch;
  VersionParts parts;
  if (!RE2::FullMatch(Piece(text), version, &major, &minor, &patch, &parts.suffix)) {
    return std::nullopt;
  }
  parts.major = std::stoi(major);
  if (!minor.empty()) parts.minor = std::stoi(minor);
  if (!patch.empty()) parts.patch = std::stoi(patch);
  return parts;
}

ParsedVersions ParseVersionOutput(std::string_view text) {
  static const RE2 commit(R"((?:commit|build revision): (\S+))", RE2::Latin1);
  ParsedVersions out;
  const bool cli_build_lines = HasCliBuildLines(text);
  bool any_text = false;
  ForEachLine(text, [&](int number, std::string_view raw) {
    std::string_view line = TrimRight(raw, " \t");
    if (!line.empty()) any_text = true;
    std::string revision;
    if (RE2::FullMatch(Piece(line), commit, &revision)) {
      // cli-version and lib-version share the cli's one build revision.
      for (auto it = out.components.rbegin(); it != out.components.rend(); ++it) {
        if (!it->revision.empty()) break;
        it->revision = revision;
        if (it->component != "libnvidia-container") break;
      }
      return;
    }
    ReadBanner(number, line, cli_build_lines, &out);
  });
  if (any_text && out.components.empty() && out.warnings.empty()) {
    out.warnings.push_back({0, "no version banner recognised"});
  }
  return out;
}

}  // namespace gpuf
