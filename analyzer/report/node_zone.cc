#include "analyzer/report/node_zone.h"

namespace gpuf {

std::string NodeZoneName(Database& db, int64_t bundle_id) {
  auto s = db.Prepare(
      "SELECT l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = ? AND ((a.name = $artifact(host.localtime) AND l.text NOT LIKE '#%') "
      "OR a.name = $artifact(host.timezone)) "
      "ORDER BY a.name = $artifact(host.timezone), l.line LIMIT 1");
  if (!s.ok()) return "";
  s->Bind(1, bundle_id);
  if (!s->Step()) return "";
  std::string text = s->ColumnText(0);
  size_t zoneinfo = text.find("zoneinfo/");
  if (zoneinfo != std::string::npos) return text.substr(zoneinfo + 9);
  if (text.find('\t') != std::string::npos) return "";  // a listing row without a zoneinfo link
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace gpuf
