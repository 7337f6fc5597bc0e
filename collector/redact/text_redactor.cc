#include "collector/redact/text_redactor.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstdio>

#include "collector/secrets.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

bool IsAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// True when the character before `begin` continues a word. "\n" and "\t"
// inside JSON strings end a word: their letter is part of an escape.
bool WordBefore(std::string_view text, size_t begin) {
  if (begin == 0 || !IsAlnum(text[begin - 1])) return false;
  char c = text[begin - 1];
  return !(begin >= 2 && text[begin - 2] == '\\' && (c == 'n' || c == 't' || c == 'r'));
}
bool WordAfter(std::string_view text, size_t end) { return end < text.size() && IsAlnum(text[end]); }

bool LiteralBounded(std::string_view text, size_t begin, size_t& end) {
  return !WordBefore(text, begin) && !WordAfter(text, end);
}

// Replaces each accepted match of `re` (its group 1 when it has one) by
// make(original). `accept` may shorten the match by moving `end`.
template <typename Accept, typename Make>
void ReplaceEach(std::string& text, const RE2& re, Accept accept, Make make) {
  const int groups = re.NumberOfCapturingGroups() >= 1 ? 2 : 1;
  re2::StringPiece input(text);
  re2::StringPiece sub[2];
  std::string out;
  size_t copied = 0, pos = 0;
  bool changed = false;
  while (pos <= text.size() && re.Match(input, pos, text.size(), RE2::UNANCHORED, sub, groups)) {
    const size_t match_begin = static_cast<size_t>(sub[0].data() - text.data());
    const size_t match_end = match_begin + sub[0].size();
    const re2::StringPiece& target = sub[groups - 1];
    size_t begin = target.data() ? static_cast<size_t>(target.data() - text.data()) : 0;
    size_t end = begin + target.size();
    if (!target.data() || target.empty() || !accept(std::string_view(text), begin, end)) {
      pos = match_begin + 1;
      continue;
    }
    std::string replacement = make(std::string_view(text).substr(begin, end - begin));
    out.append(text, copied, begin - copied);
    out += replacement;
    copied = end;
    changed = true;
    pos = std::max({end, match_end, match_begin + 1});
  }
  if (!changed) return;
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

RE2::Options Quiet() { return BytePatternOptions(); }

bool KeptIpv4(int a, int b, int c, int d) {
  return a == 0 || a == 127 || a == 255 || (a == 169 && b == 254 && c == 169 && d == 254) ||
         (a == 192 && b == 0 && c == 2) || (a == 198 && b == 51 && c == 100) || (a == 203 && b == 0 && c == 113) ||
         (a == 198 && (b == 18 || b == 19));
}

bool AcceptIpv4(std::string_view text, size_t begin, size_t& end) {
  if (begin > 0 && (IsDigit(text[begin - 1]) || text[begin - 1] == '.')) return false;
  if (end < text.size() && (IsDigit(text[end]) || (text[end] == '.' && end + 1 < text.size() && IsDigit(text[end + 1])))) {
    return false;
  }
  int octets[4];
  if (std::sscanf(std::string(text.substr(begin, end - begin)).c_str(), "%d.%d.%d.%d", &octets[0], &octets[1],
                  &octets[2], &octets[3]) != 4) {
    return false;
  }
  for (int o : octets) {
    if (o > 255) return false;
  }
  return !KeptIpv4(octets[0], octets[1], octets[2], octets[3]);
}

bool ValidIpv6(std::string_view candidate) {
  std::string text(candidate);
  in6_addr address;
  if (inet_pton(AF_INET6, text.c_str(), &address) != 1) return false;
  static const in6_addr kAny = IN6ADDR_ANY_INIT, kLoopback = IN6ADDR_LOOPBACK_INIT;
  if (IN6_ARE_ADDR_EQUAL(&address, &kAny) || IN6_ARE_ADDR_EQUAL(&address, &kLoopback)) return false;
  const unsigned char* b = address.s6_addr;
  return !(b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8);  // 2001:db8::/32, documentation
}

bool AcceptIpv6(std::string_view text, size_t begin, size_t& end) {
  if (begin > 0 && (IsAlnum(text[begin - 1]) || text[begin - 1] == '.' || text[begin - 1] == ':')) return false;
  if (WordAfter(text, end) || (end < text.size() && text[end] == '.')) return false;  // ::ffff:1.2.3.4: the IPv4 pass
  std::string_view candidate = text.substr(begin, end - begin);
  if (std::none_of(candidate.begin(), candidate.end(), IsDigit)) return false;
  if (ValidIpv6(candidate)) return true;
  if (candidate.size() > 2 && candidate.back() == ':' && candidate[candidate.size() - 2] != ':' &&
      ValidIpv6(candidate.substr(0, candidate.size() - 1))) {
    --end;  // "addr 2001:db8:1::5: up"
    return true;
  }
  return false;
}

bool AcceptMac(std::string_view text, size_t begin, size_t& end) {
  if (begin > 0 && (IsAlnum(text[begin - 1]) || text[begin - 1] == ':' || text[begin - 1] == '-')) return false;
  if (WordAfter(text, end)) return false;
  if (end + 1 < text.size() && (text[end] == ':' || text[end] == '-') && IsHex(text[end + 1])) return false;
  std::string_view mac = text.substr(begin, end - begin);
  return mac != "00:00:00:00:00:00" && mac != "ff:ff:ff:ff:ff:ff" && mac != "FF:FF:FF:FF:FF:FF";
}

bool AcceptCloudId(std::string_view text, size_t begin, size_t& end) {
  if (begin > 0 && (IsAlnum(text[begin - 1]) || text[begin - 1] == '-')) return false;
  std::string_view id = text.substr(begin, end - begin);
  return !WordAfter(text, end) && std::any_of(id.begin(), id.end(), IsDigit);
}

bool AcceptBounded(std::string_view text, size_t begin, size_t& end) { return LiteralBounded(text, begin, end); }

struct Detector {
  std::string_view class_name;
  Family family;
  const char* pattern;  // group 1, when present, is what gets replaced
  bool (*accept)(std::string_view text, size_t begin, size_t& end);
  std::string_view cue;  // lower-case text a match must contain; "" = try every line
};

// In order: a later detector never sees what an earlier one replaced as an
// original, because no pseudonym has the shape of a later class.
constexpr Detector kDetectors[] = {
    {"cloud_id", Family::kCloudId, R"(\b(i-[0-9a-z]{8,24})\b)", AcceptCloudId, "i-"},
    {"cloud_id", Family::kCloudId, R"(arn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:(\d{12}))", AcceptBounded, "arn:aws"},
    {"cloud_id", Family::kCloudId, R"((?i)account[_-]?id\W{1,4}(\d{12})\b)", AcceptBounded, "account"},
    {"cloud_id", Family::kCloudId,
     R"((?i)/subscriptions/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))", AcceptBounded,
     "/subscriptions/"},
    {"cloud_id", Family::kCloudId, R"((?i)/resourceGroups/([A-Za-z0-9._()-]{1,90}))", AcceptBounded, "/resourcegroups/"},
    {"cloud_id", Family::kCloudId, R"(gce://([a-z][a-z0-9-]{4,28}[a-z0-9])/)", AcceptBounded, "gce://"},
    {"cloud_id", Family::kCloudId, R"(/projects/([a-z][a-z0-9-]{4,28}[a-z0-9])/)", AcceptBounded, "/projects/"},
    {"gpu_id", Family::kGpuUuid,
     R"(((?:GPU|MIG)-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}))", AcceptBounded,
     ""},
    {"mac", Family::kMac, R"(([0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}))", AcceptMac, ""},
    {"ipv6", Family::kIpv6, R"(([0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:]*))", AcceptIpv6, "::"},
    {"ipv6", Family::kIpv6, R"(((?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}))", AcceptIpv6, ""},
    {"ipv4", Family::kIpv4, R"((\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}))", AcceptIpv4, ""},
};

// Secrets the collector's scrubber does not know by shape (it knows
// key=value pairs, flag values, Bearer and Basic credentials, JWTs, URL
// passwords, env entries and private keys), with their cues.
struct ExtraSecret {
  const char* pattern;
  std::string_view cue;
};
constexpr ExtraSecret kExtraSecrets[] = {
    {R"(\b((?:AKIA|ASIA)[0-9A-Z]{16})\b)", ""},
    {R"([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"'<]*:([^/\s@"'<]+)@)", "://"},  // redis://:pw@host too
    {R"(\b(gh[pousr]_[A-Za-z0-9]{30,}))", "_"},
    {R"(\b(xox[abprs]-[A-Za-z0-9-]{10,}))", "xox"},
    {R"(\b(glpat-[A-Za-z0-9_-]{20,}))", "glpat-"},
};

// The collector's scrubber (secrets.h) finds nothing in a line holding none of these.
constexpr std::string_view kScrubCues[] = {"private key", "bearer", "eyj",  "pass",  "secret", "token",
                                           "credential",  "key",    "auth", "value", "cookie", "ghp_",
                                           "gho_",        "ghu_",   "ghs_", "ghr_",  "xox",    "glpat-"};

const std::vector<std::unique_ptr<RE2>>& Compiled(bool secrets) {
  static const auto* detectors = [] {
    auto* v = new std::vector<std::unique_ptr<RE2>>;
    for (const auto& d : kDetectors) v->push_back(std::make_unique<RE2>(d.pattern, Quiet()));
    return v;
  }();
  static const auto* extra = [] {
    auto* v = new std::vector<std::unique_ptr<RE2>>;
    for (const auto& e : kExtraSecrets) v->push_back(std::make_unique<RE2>(e.pattern, Quiet()));
    return v;
  }();
  return secrets ? *extra : *detectors;
}

// Names that are not personal and that evidence needs as they are.
bool KeptName(Family family, const std::string& name) {
  // Words of the evidence itself: a host named like this would take log wording with it.
  static const std::set<std::string> kEvidenceWords = {"nvidia", "cuda", "kubelet", "containerd", "docker", "kernel",
                                                       "systemd", "runc", "plugin", "device", "driver"};
  if (kEvidenceWords.count(name)) return true;
  static const std::set<std::string> kHostnames = {"localhost", "localhost.localdomain", "ip6-localhost", "node",
                                                   "gpu", "host", "master", "worker", "none", "unknown"};
  static const std::set<std::string> kUsers = {
      "root", "nobody", "daemon", "bin", "sys", "sync", "games", "man", "mail", "news", "uucp", "proxy",
      "www-data", "backup", "list", "irc", "gnats", "messagebus", "syslog", "sshd", "polkitd", "kubelet",
      "containerd", "nvidia-persistenced", "ubuntu", "debian", "centos", "admin", "core", "ec2-user",
      "cloud-user", "azureuser", "user", "users", "the", "and", "for", "with", "from", "unknown"};
  static const std::set<std::string> kNamespaces = {"kube-system", "kube-public", "kube-node-lease", "default",
                                                    "gpu-operator", "nvidia-gpu-operator", "nvidia-device-plugin",
                                                    "k8s.io", "moby"};  // the last two: containerd's
  switch (family) {
    case Family::kHostname: return kHostnames.count(name) > 0;
    case Family::kUsername: return kUsers.count(name) > 0 || name.rfind("systemd-", 0) == 0 || name[0] == '_';
    case Family::kNamespace: return kNamespaces.count(name) > 0;
    default: return false;
  }
}

bool CaseInsensitive(Family family) {
  return family == Family::kHostname || family == Family::kMachineId || family == Family::kCloudId ||
         family == Family::kKeyword || family == Family::kGpuSerial;
}

std::unique_ptr<RE2> LiteralSet(const std::map<std::string, Family>& literals, bool case_sensitive) {
  if (literals.empty()) return nullptr;
  std::vector<std::string> words;
  for (const auto& [word, family] : literals) words.push_back(word);
  std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::string pattern;
  for (const auto& w : words) pattern += (pattern.empty() ? "" : "|") + RE2::QuoteMeta(w);
  RE2::Options o = Quiet();
  o.set_case_sensitive(case_sensitive);
  o.set_longest_match(true);
  // The DFA cache grows up to what the program leaves of max_mem: keep it
  // in proportion to the names, so memory does not creep with input size.
  o.set_max_mem(std::min<int64_t>(256 << 20, (8 << 20) + 64 * static_cast<int64_t>(pattern.size())));
  return std::make_unique<RE2>(pattern, o);
}

bool LooksLikeJson(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  return i != std::string_view::npos && (line[i] == '{' || line[i] == '"');
}

}  // namespace

TextRedactor::TextRedactor(std::set<std::string> classes, PseudonymMap* map)
    : classes_(std::move(classes)), secrets_on_(Enabled("secret")), keywords_on_(Enabled("keyword")), map_(map) {
  for (const auto& d : kDetectors) detector_on_.push_back(Enabled(d.class_name));
}

TextRedactor::~TextRedactor() = default;

void TextRedactor::KeepPodsMatching(const std::string& pattern) {
  RE2::Options o = Quiet();
  o.set_case_sensitive(false);
  keep_pods_ = std::make_unique<RE2>(pattern, o);
}

void TextRedactor::AddLiteral(Family family, std::string_view original) {
  if (sealed_ || !Enabled(InfoOf(family).class_name)) return;
  std::string word(original);
  while (!word.empty() && (word.back() == '.' || word.back() == '-')) word.pop_back();  // "of user dave."
  if (word.size() < 3 || word.size() > 253) return;
  for (char c : word) {
    if (c == '"' || c == '\\' || c == '\'' || static_cast<unsigned char>(c) <= ' ') return;
  }
  if (CaseInsensitive(family)) word = AsciiLower(word);
  if (KeptName(family, word) || map_->IsPseudonym(word)) return;
  if (family == Family::kPod && keep_pods_ && keep_pods_->ok() && RE2::PartialMatch(word, *keep_pods_)) return;
  if (family == Family::kHostname) {
    int a, b, c, d;
    if (std::sscanf(word.c_str(), "%d.%d.%d.%d", &a, &b, &c, &d) == 4) return;  // an address: ipv4 handles it
    // The short name of an FQDN, but not the region of an ACK name like "cn-shanghai.10.20.31.47".
    size_t dot = word.find('.');
    if (dot != std::string::npos && std::sscanf(word.c_str() + dot + 1, "%d.%d.%d.%d", &a, &b, &c, &d) != 4) {
      AddLiteral(family, word.substr(0, dot));
    }
  }
  (CaseInsensitive(family) ? literals_ci_ : literals_cs_).emplace(word, family);
}

void TextRedactor::AddKeyword(std::string_view word) {
  if (sealed_ || word.empty()) return;
  literals_ci_[AsciiLower(word)] = Family::kKeyword;
}

void TextRedactor::AddUserPattern(std::unique_ptr<RE2> pattern) { user_patterns_.push_back(std::move(pattern)); }

void TextRedactor::Seal() {
  literal_ci_re_ = LiteralSet(literals_ci_, false);
  literal_cs_re_ = LiteralSet(literals_cs_, true);
  sealed_ = true;
}

std::string TextRedactor::Replace(Family family, std::string_view original, RedactionCounts& counts) {
  if (map_->IsPseudonym(original)) return std::string(original);
  ++counts[std::string(InfoOf(family).class_name)];
  return map_->PseudonymFor(family, original);
}

void TextRedactor::RedactSecrets(std::string& text, RedactionCounts& counts) {
  if (!secrets_on_) return;
  const std::string lower = AsciiLower(text);
  auto has = [&](std::string_view cue) { return lower.find(cue) != std::string::npos; };
  int64_t n = 0;
  if (std::any_of(std::begin(kScrubCues), std::end(kScrubCues), has)) n += ScrubText(text);
  const auto& compiled = Compiled(true);
  for (size_t i = 0; i < std::size(kExtraSecrets); ++i) {
    if (!kExtraSecrets[i].cue.empty() && !has(kExtraSecrets[i].cue)) continue;
    ReplaceEach(text, *compiled[i], AcceptBounded, [&](std::string_view) {
      ++n;
      return std::string(kRedacted);
    });
  }
  if (n > 0) counts["secret"] += n;
}

void TextRedactor::RedactValue(std::string& text, RedactionCounts& counts) {
  if (text.empty()) return;
  if (keywords_on_) {
    for (const auto& re : user_patterns_) {
      ReplaceEach(text, *re, [](std::string_view, size_t, size_t&) { return true; },
                  [&](std::string_view m) { return Replace(Family::kKeyword, m, counts); });
    }
  }
  if (literal_ci_re_) {
    ReplaceEach(text, *literal_ci_re_, LiteralBounded,
                [&](std::string_view m) { return Replace(literals_ci_.at(AsciiLower(m)), m, counts); });
  }
  if (literal_cs_re_) {
    ReplaceEach(text, *literal_cs_re_, LiteralBounded,
                [&](std::string_view m) { return Replace(literals_cs_.at(std::string(m)), m, counts); });
  }
  const auto& compiled = Compiled(false);
  std::string lower;
  for (size_t i = 0; i < std::size(kDetectors); ++i) {
    const Detector& d = kDetectors[i];
    if (!detector_on_[i]) continue;
    if (!d.cue.empty()) {
      if (lower.empty()) lower = AsciiLower(text);
      if (lower.find(d.cue) == std::string::npos) continue;
    }
    ReplaceEach(text, *compiled[i], d.accept, [&](std::string_view m) { return Replace(d.family, m, counts); });
  }
}

void TextRedactor::RedactText(std::string& text, RedactionCounts& counts) {
  RedactSecrets(text, counts);
  RedactValue(text, counts);
}

// Each string is redacted on its own, in its escaped form ("\n" ends a
// word), and never across its quotes. Object keys go through the same
// classes: a field name matches none of them ("hostname" stays), while a key
// that is data (a registry "10.0.0.5:5000" in crictl info) must not leak.
void TextRedactor::RedactJsonLine(std::string& line, RedactionCounts& counts) {
  std::string out;
  out.reserve(line.size());
  const size_t n = line.size();
  size_t i = 0;
  while (i < n) {
    if (line[i] != '"') {
      size_t next = std::min(line.find('"', i), n);
      std::string gap = line.substr(i, next - i);
      RedactValue(gap, counts);
      out += gap;
      i = next;
      continue;
    }
    size_t close = i + 1;
    while (close < n && line[close] != '"') close += line[close] == '\\' ? 2 : 1;
    close = std::min(close, n);
    std::string content = line.substr(i + 1, close - i - 1);
    RedactValue(content, counts);
    out += '"';
    out += content;
    if (close < n) out += '"';
    i = close + 1;
  }
  line = std::move(out);
}

void TextRedactor::RedactLine(std::string& line, RedactionCounts& counts) {
  RedactSecrets(line, counts);
  if (LooksLikeJson(line)) {
    RedactJsonLine(line, counts);
  } else {
    RedactValue(line, counts);
  }
}

}  // namespace gpuf
