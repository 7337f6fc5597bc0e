#include "analyzer/render/render_html.h"

#include <doctest/doctest.h>

#include "analyzer/render/html_escape.h"
#include "analyzer/render/swimlane_svg.h"

namespace gpuf {

namespace {

TimelineRow MilestoneRow(const std::string& name, double seconds, const std::string& container = "",
                         const std::string& message = "") {
  TimelineRow row;
  row.time_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(seconds * 1e9);
  row.boot_offset = 0;
  row.since_boot_ns = static_cast<int64_t>(seconds * 1e9);
  row.milestone = Parse<Milestone>(name);
  row.container_id = container;
  row.message = message.empty() ? name : message;
  return row;
}

}  // namespace

TEST_SUITE("render_html") {

TEST_CASE("HtmlEscape: markup, quotes, control bytes and broken UTF-8") {
  CHECK(HtmlEscape("<script>alert('x')</script> & \"y\"") ==
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;");
  CHECK(HtmlEscape("a\x01" "b") == "a\xef\xbf\xbd" "b");
  CHECK(HtmlEscape("\xff\xfe ok") == "\xef\xbf\xbd\xef\xbf\xbd ok");
  CHECK(HtmlEscape("caf\xc3\xa9 \xe2\x80\xa6") == "caf\xc3\xa9 \xe2\x80\xa6");
  CHECK(HtmlEscape("line\nnext\ttab") == "line\nnext\ttab");
}

TEST_CASE("RenderHtml: text from the bundle cannot add elements") {
  Report r;
  r.node = "<img src=x onerror=alert(1)>";
  r.bundle_path = "b\"><script>x</script>.tar.zst";
  ChainStep step;
  step.name = "device plugin NVML init";
  step.status = StepStatus::kFailed;
  step.detail = "</td><script>bad()</script>";
  r.verdict.push_back(step);
  Finding f;
  f.rule_id = "r";
  f.title = "<b>t</b>";
  f.evidence.push_back({"", std::nullopt, "plugin.log[<x>]", 2, std::nullopt, "<svg onload=alert(1)>"});
  r.findings.push_back(f);
  r.milestones.push_back(MilestoneRow("boot", 0));
  r.milestones.push_back(MilestoneRow("plugin_container_started", 5, "abc</text><script>", "<script>y</script>"));
  std::string html = RenderHtml(r, DisplayZone());
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("<svg onload") == std::string::npos);
  CHECK(html.find("onmouseover=\"") == std::string::npos);
  CHECK(html.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  CHECK(html.find("Content-Security-Policy") != std::string::npos);
}

TEST_CASE("RenderHtml: a bundle that showed nothing still makes a page that says so") {
  Report r;
  std::string html = RenderHtml(r, DisplayZone());
  CHECK(html.find("GPU node report: (unknown node)") != std::string::npos);
  CHECK(html.find("GPU chain: not computed") != std::string::npos);
  CHECK(html.find("No milestone of the GPU chain could be placed in time.") != std::string::npos);
  CHECK(html.find("<svg") == std::string::npos);
  CHECK(html.rfind("</html>\n") == html.size() - 8);
}

TEST_CASE("RenderSwimlaneSvg: one lane per component, plugin containers apart, the gap measured") {
  std::vector<TimelineRow> rows = {
      MilestoneRow("boot", 0),
      MilestoneRow("driver_loaded", 17.3),
      MilestoneRow("containerd_started", 21.2),
      MilestoneRow("kubelet_started", 27.6),
      MilestoneRow("persistenced_started", 37.4),
      MilestoneRow("plugin_container_finished", 21.2, "d6fe99e9684ffa31"),
      MilestoneRow("plugin_container_started", 38.2, "f3d0365e077f8969"),
      MilestoneRow("plugin_nvml_init_failed", 38.2, "f3d0365e077f8969"),
  };
  std::vector<Interval> intervals = {{0, "plugin_start_after_persistenced", 0.8}};
  std::string svg = RenderSwimlaneSvg(rows, intervals, 0, DisplayZone());
  for (const char* lane : {"kernel", "persistenced", "containerd", "kubelet", "plugin-d6fe99e9684f",
                           "plugin-f3d0365e077f", "registration"}) {
    CHECK_MESSAGE(svg.find("id=\"boot0-lane-" + std::string(lane) + "\"") != std::string::npos, lane);
  }
  CHECK(svg.find("id=\"boot0-lane-fabricmanager\"") == std::string::npos);  // optional lane, no event
  CHECK(svg.find("data-seconds=\"0.800\"") != std::string::npos);
  CHECK(svg.find("device plugin started 0.800 s after nvidia-persistenced started") != std::string::npos);
  CHECK(svg.find("no event in this boot") != std::string::npos);  // registration
  CHECK(SwimlaneBoots(rows) == std::vector<int64_t>{0});
  CHECK(RenderSwimlaneSvg(rows, intervals, -1, DisplayZone()).empty());
}

}  // TEST_SUITE

}  // namespace gpuf
