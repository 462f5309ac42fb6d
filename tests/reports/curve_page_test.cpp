// The curve page writer (reports/curve_page.h) and its parts: one polyline per channel, keys
// marked, bones named, the time range in seconds and frames; decimation keeps every key; the page
// stays small for 200 curves of 10,000 samples.
#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <string>

#include "support/test_support.h"
#include "reports/curve_chart.h"
#include "reports/curve_decimation.h"
#include "reports/curve_page.h"

using namespace animdex;
using namespace animdex::reports;

namespace {

using test::count_of;

// A channel over 0..`seconds` with `samples` samples of a wave and `keys` keys on it.
ChannelCurve wave(std::int64_t node, std::string name, double seconds, std::size_t samples, std::size_t keys,
                  double phase = 0) {
  ChannelCurve channel;
  channel.node = node;
  channel.node_kind = "bone";
  channel.channel = std::move(name);
  const auto value = [&](double t) { return std::sin(3 * t + phase) + 0.25 * std::sin(17 * t); };
  for (std::size_t i = 0; i < samples; ++i) {
    const double t = seconds * static_cast<double>(i) / static_cast<double>(samples - 1);
    channel.sample_times.push_back(t);
    channel.sample_values.push_back(value(t));
  }
  for (std::size_t k = 0; k < keys; ++k) {
    const double t = seconds * std::pow(static_cast<double>(k) / static_cast<double>(keys - 1), 1.3);  // uneven
    channel.key_times.push_back(t);
    channel.key_values.push_back(value(t));
  }
  return channel;
}

AnimationCurves two_bones() {
  AnimationCurves curves;
  curves.animation = "0x0090";
  curves.slot = "144";
  curves.start_seconds = 0;
  curves.end_seconds = 1.5;
  curves.frames_per_second = 60;
  curves.channels = {wave(3, "T.x", 1.5, 91, 4), wave(3, "T.y", 1.5, 91, 4, 1), wave(3, "R.x", 1.5, 91, 3, 2),
                     wave(5, "R.w", 1.5, 91, 5, 3)};
  return curves;
}

}  // namespace

TEST_CASE("the curve page draws one polyline per channel with its keys and names the bones", "[reports][curves]") {
  CurveSection section;
  section.anchor = "a0";
  section.heading = "slot 144: 0x0090 (5B)";
  section.curves = two_bones();
  section.node_names = {{{"bone", 3}, "hip"}};
  const std::string html = curve_page("Curves: 0000.mot", "one animation", {section});
  CHECK(count_of(html, "<svg class=\"chart curve\"") == 2);  // one chart per bone
  CHECK(count_of(html, "<polyline class=\"mark") == 4);    // one line per channel
  CHECK(count_of(html, "<path class=\"keys c") == 4);        // every channel's keys marked
  CHECK(count_of(html, "data-lines=\"3\"") == 1);            // bone 3: T.x, T.y, R.x
  CHECK(count_of(html, "data-lines=\"1\"") == 1);            // bone 5: R.w
  CHECK_THAT(html, Catch::Contains(">bone 3 (hip)</text>") && Catch::Contains(">bone 5</text>"));
  CHECK_THAT(html, Catch::Contains("slot 144: 0x0090 (5B)"));
  // The time range in seconds and frames under each chart, the channels in the legend, a value range per panel.
  CHECK(count_of(html, ">0 s, frame 0</text>") == 2);
  CHECK(count_of(html, ">1.5 s, frame 90</text>") == 2);
  CHECK_THAT(html, Catch::Contains("<g class=\"legend\">") && Catch::Contains(">T.x</text>") &&
                       Catch::Contains(">R.w</text>"));
  CHECK(std::regex_search(html, std::regex(">T: -?[0-9.]+ to [0-9.]+</text>")));
  // A channel keeps its colour in every chart of the section: R.x and R.w differ, T.x is the first.
  CHECK(std::regex_search(html, std::regex(R"(<polyline class="mark c0" points="[^"]*"><title>T.x</title>)")));
  CHECK(std::regex_search(html, std::regex(R"(<polyline class="mark c3" points="[^"]*"><title>R.w</title>)")));
  CHECK_THAT(html, Catch::Contains("svg.curve .c0{stroke:" + curve_colour(0) + "}"));  // the page's style
  // Every key is a dot: a zero-length subpath each, 4 + 4 + 3 keys on bone 3's chart and 5 on bone 5's.
  std::size_t dots = 0;
  const std::regex keys(R"re(<path class="keys c\d" d="([^"]*)"/>)re");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), keys); it != std::sregex_iterator(); ++it)
    dots += count_of((*it)[1].str(), "h0");
  CHECK(dots == 16);
  CHECK(html.find("points=\"\"") == std::string::npos);  // no line left without its points
  // Coordinates have at most one decimal.
  CHECK_FALSE(std::regex_search(html, std::regex(R"(points="[^"]*\.\d\d)")));
  // Self-contained: no network, no external script, style or font.
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("@font-face") == std::string::npos);
}

TEST_CASE("node titles say what the node is", "[reports][curves]") {
  ChannelCurve channel;
  CHECK(node_title(channel, {}) == "channels");  // a LightWave file's own channels
  channel.node = 70;
  channel.node_kind = "ik_helper";
  CHECK(node_title(channel, {{{"bone", 70}, "hand"}}) == "IK helper 70");  // a bone's name is not a helper's
  channel.node_kind = "node";
  CHECK(node_title(channel, {}) == "node 70");
  channel.node_kind = "bone";
  CHECK(node_title(channel, {{{"bone", 70}, "hand"}}) == "bone 70 (hand)");
  AnimationCurves curves;
  CHECK(animation_heading(curves, std::nullopt, "cam.mot") == "cam.mot");
  curves.slot = "3";
  curves.animation = "A003";
  CHECK(animation_heading(curves, std::string("IDLE"), "x") == "slot 3: A003 (IDLE)");
}

TEST_CASE("decimation keeps every key and at most the budget of samples", "[reports][curves]") {
  const auto channel = wave(0, "R.x", 20.0, 10'000, 37);
  const auto line = decimated(channel.sample_times, channel.sample_values, channel.key_times, channel.key_values, 150);
  CHECK(line.times.size() <= 150 + 37 + 2);
  CHECK(line.times.size() >= 37);
  CHECK(std::is_sorted(line.times.begin(), line.times.end()));
  for (std::size_t k = 0; k < channel.key_times.size(); ++k) {
    INFO("key " << k);
    bool found = false;
    for (std::size_t i = 0; i < line.times.size(); ++i)
      found = found || (line.times[i] == channel.key_times[k] && line.values[i] == channel.key_values[k]);
    CHECK(found);
  }
  // The extremes of the samples survive (peaks and dips), and both ends of the range.
  CHECK(*std::max_element(line.values.begin(), line.values.end()) ==
        *std::max_element(channel.sample_values.begin(), channel.sample_values.end()));
  CHECK(*std::min_element(line.values.begin(), line.values.end()) ==
        *std::min_element(channel.sample_values.begin(), channel.sample_values.end()));
  CHECK(line.times.front() == 0);
  CHECK(line.times.back() == 20.0);
  // Fewer samples than the budget: all of them; non-finite points are left out.
  const auto small = decimated({0, 1, 2}, {1, NAN, 3}, {}, {}, 150);
  CHECK(small.times == std::vector<double>{0, 2});
}

TEST_CASE("a straight line needs two points whatever its samples", "[reports][curves]") {
  CurveChart chart;
  chart.id = "c";
  chart.end = 10;
  CurveLine flat{"S.x", 0, {}, {}, {}, {}};
  for (int i = 0; i <= 600; ++i) {
    flat.times.push_back(i / 60.0);
    flat.values.push_back(i / 60.0 * 0.5);  // a ramp: every point on one straight line
  }
  chart.panels = {{"S", {flat}}};
  const std::string svg = svg_curve_chart(chart);
  const auto at = svg.find("points=\"") + 8;
  CHECK(count_of(svg.substr(at, svg.find('"', at) - at), ",") == 2);
}

TEST_CASE("a page of 200 curves of 10,000 samples each stays small", "[reports][curves]") {
  CurveSection section;
  section.anchor = "a0";
  section.heading = "200 curves";
  section.curves.end_seconds = 100;
  for (std::int64_t bone = 0; bone < 20; ++bone)
    for (int c = 0; c < 10; ++c)
      section.curves.channels.push_back(wave(bone, "C." + std::to_string(c), 100.0, 10'000, 20, bone + 0.1 * c));
  const std::string html = curve_page("200 curves", "", {section});
  CHECK(count_of(html, "<polyline class=\"mark") == 200);
  CHECK(count_of(html, "<svg class=\"chart curve\"") == 20);
  CHECK(html.size() < 600'000);
  // Dashed lines past the palette's colours: 10 channels fit it, an 11th would be dashed.
  CHECK(html.find("stroke-dasharray=\"5 2\"") == std::string::npos);
}

TEST_CASE("a channel ten times larger than its group gets a panel of its own", "[reports][curves]") {
  CurveSection section;
  section.anchor = "a0";
  section.curves.end_seconds = 1;
  // GNT's rotation: an axis of unit length and a twist in degrees; then a constant scale group.
  for (const char* axis : {"R.x", "R.y", "R.z"}) section.curves.channels.push_back(wave(1, axis, 1.0, 61, 3));
  auto twist = wave(1, "R.w", 1.0, 61, 3);
  for (auto* values : {&twist.sample_values, &twist.key_values})
    for (double& value : *values) value *= 150;
  section.curves.channels.push_back(twist);
  for (const auto& [axis, value] : {std::pair{"S.x", 1.0}, std::pair{"S.y", 40.0}}) {
    ChannelCurve scale;
    scale.node = 1;
    scale.node_kind = "bone";
    scale.channel = axis;
    scale.key_times = {0, 1};
    scale.key_values = {value, value};
    section.curves.channels.push_back(scale);
  }
  const std::string html = curve_section_html(section);
  CHECK(std::regex_search(html, std::regex(">R: -?[0-9.]+ to [0-9.]+</text>")));
  CHECK(std::regex_search(html, std::regex(">R\\.w: -[0-9.]+ to [0-9.]+</text>")));
  CHECK_THAT(html, Catch::Contains(">S: 1 to 40</text>"));  // constants stay together: flat at any scale
  CHECK(count_of(html, "<polyline class=\"mark") == 6);
  CHECK(html.find("points=\"\"") == std::string::npos);
}

TEST_CASE("a section past its budget is drawn with less detail and says so", "[reports][curves]") {
  CurveSection section;
  section.anchor = "a0";
  section.curves.end_seconds = 10;
  for (std::int64_t bone = 0; bone < 40; ++bone)
    for (int c = 0; c < 9; ++c) section.curves.channels.push_back(wave(bone, "T." + std::to_string(c), 10.0, 601, 300, bone + 0.1 * c));
  const std::string full = curve_section_html(section);
  CurvePageOptions options;
  options.section_budget = full.size() / 3;
  const std::string reduced = curve_section_html(section, options);
  CHECK(reduced.size() < full.size() / 2);
  CHECK_THAT(reduced, Catch::Contains("At 360 channels the page would be too large"));
  CHECK(count_of(reduced, "<polyline class=\"mark") == 360);  // every channel still drawn
  CHECK_THAT(full, !Catch::Contains("would be too large"));
}
