// The load and the timeline that analyze runs before its rules, alone, on a
// scratch database: bench/run times it beside analyze to tell what the
// rules and the report add. (The timeline command is no such measure: it
// stores only the journal entries its milestones need.)
//
// usage: gpuf_bench_prepare BUNDLE
#include <cstdio>

#include "analyzer/analysis.h"
#include "analyzer/database.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gpuf_bench_prepare BUNDLE\n");
    return 64;
  }
  auto db = gpuf::Database::Create(gpuf::kScratchDatabase);
  if (!db.ok()) {
    std::fprintf(stderr, "gpuf_bench_prepare: %s\n", db.status().message().c_str());
    return 1;
  }
  auto loaded = gpuf::PrepareBundle(argv[1], *db, {}, gpuf::Preparation::kEverything);
  if (!loaded.ok()) {
    std::fprintf(stderr, "gpuf_bench_prepare: %s\n", loaded.status().message().c_str());
    return 1;
  }
  return 0;
}
