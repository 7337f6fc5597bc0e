#include "analyzer/render/render_diff.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/json_bytes.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

using Json = nlohmann::ordered_json;

std::optional<int64_t> ParseInteger(const std::string& text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string Shown(const std::optional<std::string>& value, FactKind kind, const DisplayZone& zone) {
  if (!value) return "absent";
  switch (kind) {
    case FactKind::kSeconds: return *value + " s";
    case FactKind::kTime: {
      std::optional<int64_t> ns = ParseInteger(*value);
      return ns ? zone.Format(*ns) : *value;
    }
    case FactKind::kText:
    case FactKind::kCount: return *value;
  }
  return *value;
}

std::string ContainerLine(const SeenPluginContainer& c, const DisplayZone& zone) {
  std::string line = c.id.substr(0, 12);
  if (c.attempt) line += " attempt " + std::to_string(*c.attempt);
  if (c.created_at_ns) line += ", created " + zone.Format(*c.created_at_ns);
  if (!c.state.empty()) line += ", " + c.state;
  return line;
}

std::string RecreatedLine(const RecoveryCheck& r) {
  if (!r.recreated) return "unknown (no plugin container in one of the bundles)";
  if (!*r.recreated) return "NO, the same container id in both bundles";
  return std::string("yes, a new container id") +
         (r.a_container_in_b ? " (A's container is still listed in B, " + *r.a_container_in_b + ")"
                             : " (A's container is no longer listed in B)");
}

std::string Upper(std::string s) {
  for (auto& ch : s) ch = ch == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string RelationWords(NodeRelation r) {
  switch (r) {
    case NodeRelation::kSameBoot: return "same node, same boot";
    case NodeRelation::kSameNodeOtherBoot: return "same node, another boot";
    case NodeRelation::kDifferentNodes: return "different nodes";
    case NodeRelation::kUnknown: return "not known to be the same node";
  }
  return "unknown";
}

std::string IdentityLine(const BundleSnapshot& s, const DisplayZone& zone) {
  auto or_unknown = [](const std::string& v) { return v.empty() ? std::string("unknown") : v; };
  return "node " + or_unknown(s.node_name) + ", machine-id " + or_unknown(s.machine_id) + ", boot " +
         or_unknown(s.boot_id) + ", collected " + zone.Format(s.collected_at_ns);
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// --- text ---

void TextRecovery(const BundleDiff& d, const DiffRenderOptions& o, std::string& out) {
  if (!d.recovery) {
    out += "Recovery check: not applicable (" + RelationWords(d.relation) + ")\n\n";
    return;
  }
  const RecoveryCheck& r = *d.recovery;
  out += "Recovery check (same node, A before B)\n";
  if (r.b_collected_first) out += "  note              B was collected before A: read this check backwards\n";
  out += "  plugin container  A " + (r.a_container ? ContainerLine(*r.a_container, o.zone) : "none") + "\n";
  out += "                    B " + (r.b_container ? ContainerLine(*r.b_container, o.zone) : "none") + "\n";
  out += "  recreated         " + RecreatedLine(r) + "\n";
  out += "  registration      " + r.registration_a + " -> " + r.registration_b + "\n";
  auto ratio = [](const std::optional<std::string>& n, const std::optional<int64_t>& of) {
    return n.value_or("absent") + (of ? "/" + std::to_string(*of) : "");
  };
  out += "  allocatable       " + ratio(r.allocatable_a, r.gpus_a) + " -> " + ratio(r.allocatable_b, r.gpus_b) +
         " (nvidia.com/gpu / GPUs on the host)\n";
  out += "  verdict           " + Upper(RecoveryVerdictName(r.verdict)) + ": " + r.summary + "\n\n";
}

void TextSection(const SectionDiff& s, const DiffRenderOptions& o, std::string& out) {
  std::vector<const FactDiff*> shown;
  for (const auto& f : s.facts) {
    if (o.show_all || !f.same()) shown.push_back(&f);
  }
  size_t name_width = 24, a_width = 8;
  for (const FactDiff* f : shown) {
    name_width = std::max(name_width, f->name.size() + 2);
    a_width = std::max(a_width, Shown(f->a, f->kind, o.zone).size() + 2);
  }
  name_width = std::max(name_width, s.title.size() - 2);
  out += Pad(s.title, name_width + 4) + Pad("A", a_width) + "B\n";
  for (const FactDiff* f : shown) {
    out += std::string(f->same() ? "  = " : "  * ") + Pad(f->name, name_width) +
           Pad(Shown(f->a, f->kind, o.zone), a_width) + Shown(f->b, f->kind, o.zone) + "\n";
  }
  if (!o.show_all && s.same > 0) out += "    (" + std::to_string(s.same) + " same)\n";
  out += "\n";
}

// --- markdown ---

std::string Cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out;
}

void MarkdownRecovery(const BundleDiff& d, const DiffRenderOptions& o, std::string& out) {
  out += "## Recovery check\n\n";
  if (!d.recovery) {
    out += "Not applicable: " + RelationWords(d.relation) + " (" + d.relation_reason + ").\n\n";
    return;
  }
  const RecoveryCheck& r = *d.recovery;
  out += "**" + Upper(RecoveryVerdictName(r.verdict)) + "**: " + Cell(r.summary) + "\n\n";
  if (r.b_collected_first) out += "Note: B was collected before A; read this check backwards.\n\n";
  out += "| | A (before) | B (after) |\n|---|---|---|\n";
  out += "| plugin container | " + (r.a_container ? Cell(ContainerLine(*r.a_container, o.zone)) : "none") + " | " +
         (r.b_container ? Cell(ContainerLine(*r.b_container, o.zone)) : "none") + " |\n";
  out += "| registration | " + r.registration_a + " | " + r.registration_b + " |\n";
  out += "| allocatable nvidia.com/gpu | " + r.allocatable_a.value_or("absent") + " | " +
         r.allocatable_b.value_or("absent") + " |\n";
  out += "| GPUs on the host | " + (r.gpus_a ? std::to_string(*r.gpus_a) : "unknown") + " | " +
         (r.gpus_b ? std::to_string(*r.gpus_b) : "unknown") + " |\n\n";
  out += "Container recreated: " + RecreatedLine(r) + ".\n\n";
}

void MarkdownSection(const SectionDiff& s, const DiffRenderOptions& o, std::string& out) {
  out += "## " + s.title + "\n\n";
  bool any = false;
  for (const auto& f : s.facts) {
    if (!o.show_all && f.same()) continue;
    if (!any) out += "| | A | B |" + std::string(o.show_all ? " same |\n|---|---|---|---|\n" : "\n|---|---|---|\n");
    any = true;
    out += "| " + Cell(f.name) + " | " + Cell(Shown(f.a, f.kind, o.zone)) + " | " +
           Cell(Shown(f.b, f.kind, o.zone)) + " |" + (o.show_all ? (f.same() ? " yes |" : " **no** |") : "") + "\n";
  }
  if (any) out += "\n";
  if (!o.show_all && s.same > 0) {
    out += "_" + std::to_string(s.same) + (s.same == 1 ? " fact" : " facts") + " the same in both._\n\n";
  }
}

// --- json ---

// A count or time that does not parse (a Node quantity such as "1k") stays text.
Json FactValueJson(const std::optional<std::string>& v, FactKind kind) {
  if (!v) return nullptr;
  std::optional<int64_t> number = ParseInteger(*v);
  switch (kind) {
    case FactKind::kCount: return number ? Json(*number) : Json(*v);
    case FactKind::kSeconds: return Json(std::strtod(v->c_str(), nullptr));
    case FactKind::kTime: return number ? Json(FormatRfc3339Utc(*number)) : Json(*v);
    case FactKind::kText: return *v;
  }
  return *v;
}

Json BundleJson(const BundleSnapshot& s) {
  auto nullable = [](const std::string& v) { return v.empty() ? Json(nullptr) : Json(v); };
  return {{"path", s.path},
          {"node", nullable(s.node_name)},
          {"machine_id", nullable(s.machine_id)},
          {"boot_id", nullable(s.boot_id)},
          {"node_zone", nullable(s.node_zone)},
          {"collected_at", FormatRfc3339Utc(s.collected_at_ns)},
          {"gaps", s.gaps}};
}

Json ContainerJson(const std::optional<SeenPluginContainer>& c) {
  if (!c) return nullptr;
  return {{"id", c->id},
          {"state", c->state.empty() ? Json(nullptr) : Json(c->state)},
          {"attempt", c->attempt ? Json(*c->attempt) : Json(nullptr)},
          {"created_at", c->created_at_ns ? Json(FormatRfc3339Utc(*c->created_at_ns)) : Json(nullptr)}};
}

Json RecoveryJson(const std::optional<RecoveryCheck>& recovery) {
  if (!recovery) return nullptr;
  const RecoveryCheck& r = *recovery;
  auto opt = [](const auto& v) { return v ? Json(*v) : Json(nullptr); };
  return {{"verdict", RecoveryVerdictName(r.verdict)},
          {"summary", r.summary},
          {"container_recreated", opt(r.recreated)},
          {"a_container", ContainerJson(r.a_container)},
          {"b_container", ContainerJson(r.b_container)},
          {"a_container_state_in_b", opt(r.a_container_in_b)},
          {"registration", {{"a", r.registration_a}, {"b", r.registration_b}}},
          {"allocatable", {{"a", opt(r.allocatable_a)}, {"b", opt(r.allocatable_b)}}},
          {"gpus", {{"a", opt(r.gpus_a)}, {"b", opt(r.gpus_b)}}},
          {"b_collected_first", r.b_collected_first}};
}

}  // namespace

std::string RenderDiffText(const BundleDiff& d, const DiffRenderOptions& o) {
  std::string out;
  out += "A  " + d.a.path + "\n   " + IdentityLine(d.a, o.zone) + "\n";
  for (const auto& gap : d.a.gaps) out += "   NOT TRUSTWORTHY: " + gap + "\n";
  out += "B  " + d.b.path + "\n   " + IdentityLine(d.b, o.zone) + "\n";
  for (const auto& gap : d.b.gaps) out += "   NOT TRUSTWORTHY: " + gap + "\n";
  out += "Nodes: " + RelationWords(d.relation) + " (" + d.relation_reason + ")\n";
  out += std::to_string(d.different) + " facts differ, " + std::to_string(d.same) + " the same\n\n";
  TextRecovery(d, o, out);
  for (const auto& s : d.sections) {
    if (o.show_all || s.different > 0) {
      TextSection(s, o, out);
    } else {
      out += s.title + ": all " + std::to_string(s.same) + " the same\n\n";
    }
  }
  out.pop_back();  // one newline at the end
  return out;
}

std::string RenderDiffMarkdown(const BundleDiff& d, const DiffRenderOptions& o) {
  std::string out = "# GPU node bundle diff\n\n";
  out += "| | A | B |\n|---|---|---|\n";
  out += "| bundle | `" + Cell(d.a.path) + "` | `" + Cell(d.b.path) + "` |\n";
  auto row = [&](const char* name, const std::string& a, const std::string& b) {
    out += std::string("| ") + name + " | " + Cell(a.empty() ? "unknown" : a) + " | " +
           Cell(b.empty() ? "unknown" : b) + " |\n";
  };
  row("node", d.a.node_name, d.b.node_name);
  row("machine-id", d.a.machine_id, d.b.machine_id);
  row("boot id", d.a.boot_id, d.b.boot_id);
  row("collected", o.zone.Format(d.a.collected_at_ns), o.zone.Format(d.b.collected_at_ns));
  if (!d.a.gaps.empty() || !d.b.gaps.empty()) {
    auto joined = [](const std::vector<std::string>& gaps) {
      std::string text;
      for (const auto& g : gaps) text += (text.empty() ? "" : "; ") + g;
      return text.empty() ? std::string("none") : text;
    };
    out += "| **not trustworthy** | " + Cell(joined(d.a.gaps)) + " | " + Cell(joined(d.b.gaps)) + " |\n";
  }
  out += "\n**Nodes:** " + RelationWords(d.relation) + " (" + d.relation_reason + "). **" +
         std::to_string(d.different) + "** facts differ, " + std::to_string(d.same) + " the same.\n\n";
  MarkdownRecovery(d, o, out);
  for (const auto& s : d.sections) MarkdownSection(s, o, out);
  out.pop_back();
  return out;
}

std::string RenderDiffJson(const BundleDiff& d) {
  Json sections = Json::array();
  for (const auto& s : d.sections) {
    Json facts = Json::array();
    for (const auto& f : s.facts) {
      facts.push_back({{"name", f.name},
                       {"kind", FactKindName(f.kind)},
                       {"a", FactValueJson(f.a, f.kind)},
                       {"b", FactValueJson(f.b, f.kind)},
                       {"same", f.same()}});
    }
    sections.push_back({{"id", s.id}, {"title", s.title}, {"different", s.different}, {"same", s.same},
                        {"facts", facts}});
  }
  Json doc = {{"format", "gpuforensics-diff"},
              {"format_version", kDiffJsonVersion},
              {"a", BundleJson(d.a)},
              {"b", BundleJson(d.b)},
              {"nodes", {{"relation", NodeRelationName(d.relation)}, {"reason", d.relation_reason}}},
              {"summary", {{"different", d.different}, {"same", d.same}}},
              {"recovery", RecoveryJson(d.recovery)},
              {"sections", sections}};
  return DumpJson(doc, 2, NonUtf8::kEscaped) + "\n";
}

}  // namespace gpuf
