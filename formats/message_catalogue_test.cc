#include "formats/message_catalogue.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <algorithm>
#include <set>

#include "common/event_kinds.h"
#include "formats/pattern_options.h"

namespace gpuf {

namespace {

MessageCatalogue Read(std::string_view text) {
  MessageCatalogue c;
  ReadMessageFile("demo.yaml", text, c);
  return c;
}

constexpr char kEntry[] = R"(component: demo
entries:
  - id: demo-mismatch
    event: nvml_init_failed
    set: {reason: lib_mismatch}
    pattern: 'Failed to initialize NVML: Driver/library version mismatch'
    versions: every
    source: https://example.org/thread/1
    example: 'Failed to initialize NVML: Driver/library version mismatch'
    lookalike: 'Failed to initialize NVML: Unknown Error'
)";

}  // namespace

TEST_SUITE("message_catalogue") {

TEST_CASE("Built-in catalogue: every entry reads, matches its example and not its look-alike") {
  const MessageCatalogue& c = BuiltinMessages();
  for (const auto& error : c.errors) FAIL_CHECK(error);
  REQUIRE_FALSE(c.entries.empty());
  std::set<std::string> ids;
  for (const auto& e : c.entries) {
    CAPTURE(e.id);
    CHECK(ids.insert(e.id).second);
    CHECK(FindEventKind(e.event) != nullptr);
    RE2 re(e.pattern, RulePatternOptions());
    REQUIRE(re.ok());
    CHECK(EntrySays(e, e.example));
    CHECK_FALSE(EntrySays(e, e.lookalike));
    CHECK(e.source.rfind("https://", 0) == 0);
    CHECK_FALSE(e.versions.empty());
  }
}

// A line two entries of one kind match gives the first one's row: a
// general wording before a specific one would hide the specific one's
// reason (nvml-init-failed before nvml-unknown-error).
TEST_CASE("Built-in catalogue: no entry is hidden by an earlier, more general one of its kind") {
  const MessageCatalogue& c = BuiltinMessages();
  for (const auto& e : c.entries) {
    CAPTURE(e.id);
    for (const MessageEntry* first : c.Of(e.event, {})) {
      if (!RE2::PartialMatch(e.example, RE2(first->pattern, RulePatternOptions()))) continue;
      CAPTURE(first->id);
      for (const auto& pair : e.set) CHECK(std::find(first->set.begin(), first->set.end(), pair) != first->set.end());
      break;
    }
  }
}

TEST_CASE("Built-in catalogue: every event kind has a wording, or is read from the journal's classification") {
  for (const auto& kind : EventKinds()) {
    CAPTURE(kind.name);
    CHECK((!BuiltinMessages().Of(kind.name, {}).empty() || !kind.journal_events.empty()));
  }
}

FieldFilter Equals(std::string field, std::string value) {
  return {.field = std::move(field), .values = {std::move(value)}, .negated = false};
}

TEST_CASE("MessageCatalogue::Of: the kind's entries whose set fields include the asked ones") {
  MessageCatalogue c = Read(kEntry);
  REQUIRE(c.errors.empty());
  REQUIRE(c.entries.size() == 1);
  CHECK(c.entries[0].line == 3);
  CHECK(c.Of("nvml_init_failed", {}).size() == 1);
  CHECK(c.Of("nvml_init_failed", {Equals("reason", "lib_mismatch")}).size() == 1);
  CHECK(c.Of("nvml_init_failed", {Equals("reason", "insufficient_permissions")}).empty());
  CHECK(c.Of("gpu_init_failed", {}).empty());
  // None of several, absent, present: every entry of the kind, each line
  // deciding once its first wording made it the event.
  CHECK(c.Of("nvml_init_failed", {{.field = "reason", .values = {"lib_mismatch"}, .negated = true}}).size() == 1);
  CHECK(c.Of("nvml_init_failed", {{.field = "reason", .values = {}, .negated = false}}).size() == 1);
}

TEST_CASE("AnyWordingOf: one pattern that every example of the kind matches, and no other kind's look-alike") {
  const MessageCatalogue& c = BuiltinMessages();
  for (const EventKindRow& kind : EventKinds()) {
    const std::string any = AnyWordingOf(c, kind.name);
    if (c.Of(kind.name, {}).empty()) {
      CHECK(any.empty());
      continue;
    }
    RE2 re(any, RulePatternOptions());
    REQUIRE_MESSAGE(re.ok(), kind.name << ": " << re.error());
    CHECK(re.NumberOfCapturingGroups() == 0);
    for (const MessageEntry* e : c.Of(kind.name, {})) CHECK_MESSAGE(RE2::PartialMatch(e->example, re), e->id);
  }
  CHECK(
      RE2::PartialMatch("Failed to start health check: failed to initialize NVML: Unknown Error; continuing with "
                        "health checks disabled",
                        RE2(AnyWordingOf(c, "health_checks_disabled"), RulePatternOptions())));
  CHECK_FALSE(RE2::PartialMatch("Failed to initialize NVML: Unknown Error",
                                RE2(AnyWordingOf(c, "health_checks_disabled"), RulePatternOptions())));
}

TEST_CASE("MessageCatalogue::Of: a captured field may have any value, a set one only its own") {
  const MessageCatalogue& c = BuiltinMessages();
  // Every Xid wording captures its code; the plugin's per-device wordings do
  // not set scope, so only the wordings about every device say scope=all.
  CHECK_FALSE(c.Of("xid", {Equals("code", "79")}).empty());
  for (const MessageEntry* e : c.Of("gpu_unhealthy", {Equals("scope", "all")})) {
    CHECK(e->set == FieldValues{{"scope", "all"}});
  }
}

TEST_CASE("ReadMessageFile: an entry whose example does not match is refused with its line") {
  std::string text = kEntry;
  text.replace(text.find("example: 'Failed to initialize NVML: Driver"), 40, "example: 'nvidia-smi has failed because ");
  MessageCatalogue c = Read(text);
  CHECK(c.entries.empty());
  REQUIRE(c.errors.size() == 1);
  CHECK(c.errors[0].rfind("demo.yaml:9:", 0) == 0);
  CHECK(c.errors[0].find("the pattern does not match it") != std::string::npos);
}

TEST_CASE("ReadMessageFile: a look-alike that matches, an unknown kind or field, a second id are refused") {
  SUBCASE("look-alike matches") {
    std::string text = kEntry;
    text.replace(text.find("lookalike: 'Failed to initialize NVML: Unknown Error'"), 52,
                 "lookalike: 'Failed to initialize NVML: Driver/library version mismatch'");
    MessageCatalogue c = Read(text);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("the pattern matches it") != std::string::npos);
  }
  SUBCASE("unknown event kind") {
    std::string text = kEntry;
    text.replace(text.find("event: nvml_init_failed"), 23, "event: nvml_init_fail");
    MessageCatalogue c = Read(text);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("unknown event kind 'nvml_init_fail'") != std::string::npos);
  }
  SUBCASE("a field the kind does not have") {
    std::string text = kEntry;
    text.replace(text.find("set: {reason:"), 13, "set: {cause:");
    MessageCatalogue c = Read(text);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("'cause' is not a field of nvml_init_failed (reason error)") != std::string::npos);
  }
  SUBCASE("the same id twice") {
    std::string text = kEntry;
    text += text.substr(text.find("  - id:"));
    MessageCatalogue c = Read(text);
    CHECK(c.entries.size() == 1);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("id 'demo-mismatch' is already in the catalogue") != std::string::npos);
  }
  SUBCASE("an id that is not kebab-case, as rule ids are not") {
    std::string text = kEntry;
    text.replace(text.find("id: demo-mismatch"), 17, "id: demo--mismatch");
    MessageCatalogue c = Read(text);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("id 'demo--mismatch' is not kebab-case") != std::string::npos);
  }
  SUBCASE("not https") {
    std::string text = kEntry;
    text.replace(text.find("https://"), 8, "http://");
    MessageCatalogue c = Read(text);
    REQUIRE(c.errors.size() == 1);
    CHECK(c.errors[0].find("source must be an https:// URL") != std::string::npos);
  }
}

TEST_CASE("ReadMessageFile: text that is not YAML is one error, never an exception") {
  MessageCatalogue c = Read("component: [unclosed\n");
  CHECK(c.entries.empty());
  CHECK(c.errors.size() == 1);
  MessageCatalogue bytes = Read(std::string("component: \xb5\xff\n\0entries: 3\n", 26));
  CHECK(bytes.entries.empty());
  CHECK_FALSE(bytes.errors.empty());
}

TEST_CASE("ReadMessageFile: unless keeps a look-alike out that the pattern alone would take") {
  std::string text = kEntry;
  text.replace(text.find("    pattern: "), 0, "    unless: 'GPU 2'\n");
  text.replace(text.find("lookalike: 'Failed to initialize NVML: Unknown Error'"),
               std::string("lookalike: 'Failed to initialize NVML: Unknown Error'").size(),
               "lookalike: 'GPU 2: Failed to initialize NVML: Driver/library version mismatch'");
  MessageCatalogue c = Read(text);
  REQUIRE(c.errors.empty());
  REQUIRE(c.entries.size() == 1);
  const MessageEntry& e = c.entries[0];
  CHECK(EntrySays(e, "Failed to initialize NVML: Driver/library version mismatch"));
  CHECK_FALSE(EntrySays(e, "GPU 2: Failed to initialize NVML: Driver/library version mismatch"));

  SUBCASE("an unless that does not compile is refused with its line") {
    text.replace(text.find("unless: 'GPU 2'"), std::string("unless: 'GPU 2'").size(), "unless: 'GPU ('");
    MessageCatalogue bad = Read(text);
    CHECK(bad.entries.empty());
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0].find("unless does not compile") != std::string::npos);
  }
}

TEST_CASE("Built-in catalogue: a line copied with a typographic apostrophe is still the event") {
  auto entry = [](std::string_view id) -> const MessageEntry& {
    for (const auto& e : BuiltinMessages().entries) {
      if (e.id == id) return e;
    }
    FAIL("no entry " << id);
    throw 0;
  };
  // As github.com/NVIDIA/nvtrust/issues/55 quotes it.
  CHECK(EntrySays(entry("fm-driver-interface-version-mismatch"),
                  "fabric manager NVIDIA GPU driver interface version 535.104.05 don\u2019t match with driver version "
                  "535.86.10. Please update with matching NVIDIA driver package."));
  CHECK(EntrySays(entry("nvml-smi-driver-unreachable"),
                  "NVIDIA-SMI has failed because it couldn\u2019t communicate with the NVIDIA driver."));
}

}  // TEST_SUITE

}  // namespace gpuf
