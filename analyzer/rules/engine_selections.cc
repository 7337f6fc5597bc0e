#include "analyzer/rules/engine_selections.h"

#include "analyzer/rules/rule_parser.h"

namespace gpuf {

std::unique_ptr<Selection> GpuNamesSelection() {
  auto s = std::make_unique<Selection>();
  s->name = "gpu_named";
  s->message = "gpu_named";
  FillMessagePatterns(*s);
  for (const char* kind : {"xid", "gpu_fallen_off_bus", "gpu_init_failed"}) {
    Selection more;
    more.message = kind;
    FillMessagePatterns(more);
    s->patterns.insert(s->patterns.end(), more.patterns.begin(), more.patterns.end());
  }
  return s;
}

std::unique_ptr<Selection> RegistrationsSelection() {
  auto s = std::make_unique<Selection>();
  s->name = "plugin_registered";
  s->message = "plugin_registered";
  FillMessagePatterns(*s);
  return s;
}

}  // namespace gpuf
