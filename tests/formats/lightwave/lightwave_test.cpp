#include <catch2/catch.hpp>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

#include "formats/lightwave/lw_model.h"
#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_writer.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::lightwave;

namespace {
LwFile parse_ok(const std::string& text) {
  auto parsed = parse_lw(test::bytes_of(text));
  INFO(text);
  if (!parsed.ok()) FAIL(parsed.error().message());
  return std::move(parsed).value();
}
}  // namespace

TEST_CASE("LWMO v1 parses with LF, CRLF and no final newline", "[lightwave]") {
  for (const std::string eol : {"\n", "\r\n"}) {
    std::string text = "LWMO" + eol + "1" + eol + "9" + eol + "2" + eol + "1 2 3 4 5 6 1 1 1" + eol + "0 0 0.5 0 -0.25" +
                       eol + "-1.5 2e-3 3 4 5 6 1 1 2" + eol + "10 1 0 0 0";  // no final newline
    const auto file = parse_ok(text);
    CHECK(file.kind == FileKind::motion);
    CHECK(file.version == 1);
    REQUIRE(file.channels.size() == 9);
    REQUIRE(file.channels[0].keys.size() == 2);
    CHECK(file.channels[0].keys[1].value == -1.5);
    CHECK(file.channels[1].keys[1].value == 0.002);
    CHECK(file.channels[8].keys[1].value == 2.0);
    CHECK(file.channels[3].keys[1].time == 10.0);
    CHECK(file.channels[3].keys[0].shape == kTcb);
    CHECK(file.channels[3].keys[0].params[0] == 0.5);
    CHECK(file.channels[3].keys[0].params[2] == -0.25);
    CHECK(file.channels[3].keys[1].shape == kLinear);
    CHECK(file.channels[3].keys[1].linear_flag == 1);
    CHECK(file.channels[0].pre_behavior == kConstant);
    CHECK(file.warnings.empty());
  }
}

TEST_CASE("LWMO v3 parses envelopes, shapes, parameters and behaviours", "[lightwave]") {
  const auto file = parse_ok(
      "LWMO\n3\n\nNumChannels 2\nChannel 0\n{ Envelope\n  2\n  Key 1 0 0 0.5 0 0 0 0 0\n"
      "  Key 2 1.5 5 -0.2 0.1 0.3 0.4 0.7 0\n  Behaviors 4 3\n}\nChannel 1\n{ Envelope\n  1\n"
      "  Key -3 0 4 0 0 0 0 0 0\n  Behaviors 1 1\n}\n");
  CHECK(file.version == 3);
  REQUIRE(file.channels.size() == 2);
  const auto& channel = file.channels[0];
  REQUIRE(channel.keys.size() == 2);
  CHECK(channel.keys[1].value == 2.0);
  CHECK(channel.keys[1].time == 1.5);
  CHECK(channel.keys[1].shape == kBezier2D);
  CHECK(channel.keys[1].params == std::array<double, 6>{-0.2, 0.1, 0.3, 0.4, 0.7, 0});
  CHECK(channel.pre_behavior == kOffsetRepeat);
  CHECK(channel.post_behavior == kOscillate);
  CHECK(file.channels[1].keys[0].shape == kStepped);
  CHECK_FALSE(channel.keys[0].linear_flag.has_value());
}

TEST_CASE("LightWave sanity warnings do not stop the parse", "[lightwave]") {
  const auto v1 = parse_ok("LWEN\n1\n2\n1\n5 6\n0 0 1.5 0 0\n");
  REQUIRE(v1.warnings.size() == 2);
  CHECK_THAT(v1.warnings[0], Catch::Contains("2 channels per key (expected 1)"));
  CHECK_THAT(v1.warnings[1], Catch::Contains("tension 1.5 is outside [-1, 1]"));
  const auto v3 = parse_ok(
      "LWMO\n3\nNumChannels 4\nChannel 0\n{ Envelope\n 2\n Key 0 0 0\n Key 1 0 0 0 0 0 0 0 0\n Shiny 1\n Behaviors 1 1\n}\n"
      "Channel 1\n{ Envelope\n 1\n Key 0 0 0 0 0 0 0 0 0\n Behaviors 1 1\n}\nChannel 2\n{ Envelope\n 1\n"
      " Key 0 0 0 0 0 0 0 0 0\n Behaviors 1 1\n}\nChannel 3\n{ Envelope\n 1\n Key 180 0 0 0 0 0 0 0 0\n Behaviors 1 1\n}\n");
  std::string all;
  for (const auto& warning : v3.warnings) all += warning + "\n";
  CHECK_THAT(all, Catch::Contains("3 numbers, padded with 0 to 9"));
  CHECK_THAT(all, Catch::Contains("same time as the key before"));
  CHECK_THAT(all, Catch::Contains("unknown line 'Shiny'"));
  CHECK_THAT(all, Catch::Contains("looks like degrees"));
}

TEST_CASE("Kuper ASCII parses axes and frames", "[lightwave][kuper]") {
  auto parsed = parse_kuper(test::bytes_of("Axes = VTrack, VEW,VNS\r\n0 1 2\r\n\r\n3 4.5 -6\r\n"));
  REQUIRE(parsed.ok());
  CHECK(parsed.value().axes == std::vector<std::string>{"VTrack", "VEW", "VNS"});
  REQUIRE(parsed.value().frames.size() == 2);
  CHECK(parsed.value().frames[1] == std::vector<double>{3, 4.5, -6});
  const auto model = to_model(parsed.value());
  REQUIRE(model.animations.size() == 1);
  CHECK(model.animations[0].tracks[2].channels == "VNS");
  CHECK(model.animations[0].tracks[2].keys[1].x == -6.0);
  CHECK(model.animations[0].frame_count == 2);
}

TEST_CASE("Kuper frames convert to LWMO as the seed document shows", "[lightwave][kuper]") {
  // The seed's example: 11 frames with every axis equal to the frame number become 12 keys,
  // a rest key at frame 0 and frame k at frame k + 1 with z, pitch and bank reversed.
  std::string text = "Axes = VTrack, VEW, VNS, VPan, VTilt, VRoll\r\n";
  for (int k = 0; k <= 10; ++k) text += fmt::format("{0}.0000 {0}.0000 {0}.0000 {0}.0000 {0}.0000 {0}.0000\r\n", k);
  auto kuper = parse_kuper(test::bytes_of(text));
  REQUIRE(kuper.ok());
  const auto motion = kuper_to_motion(kuper.value(), default_kuper_mapping(kuper.value()));
  const auto written = write_lw(motion);
  CHECK_THAT(written, Catch::StartsWith("LWMO\n1\n9\n12\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n0 0 0 0 0 0 1 1 1\n1 0 0 0 0\n"
                                        "1 1 -1 1 -1 -1 1 1 1\n2 0 0 0 0\n"));
  CHECK_THAT(written, Catch::EndsWith("10 10 -10 10 -10 -10 1 1 1\n11 0 0 0 0\n"));
  // A mapping can send an axis elsewhere and flip it.
  const auto remapped = kuper_to_motion(kuper.value(), {{"VEW", 0, -1.0}, {"VPan", 3, 2.0}});
  CHECK(remapped.channels[0].keys[3].value == -2.0);
  CHECK(remapped.channels[3].keys[3].value == 4.0);
  CHECK(remapped.channels[1].keys[3].value == 0.0);
  CHECK_THROWS_AS(kuper_to_motion(kuper.value(), {{"Zoom", 0, 1.0}}), std::invalid_argument);
}

TEST_CASE("LightWave files round-trip through the writer, and convert between versions", "[lightwave]") {
  const auto v3 = parse_ok(
      "LWMO\n3\n\nNumChannels 1\nChannel 0\n{ Envelope\n  4\n  Key 0 0 0 0.25 -0.5 0.75 0 0 0\n"
      "  Key 1.5 0.5 1 0 0 0 0.1 0.2 0\n  Key -2 1 5 -0.1 0.2 0.1 -0.3 0.5 0\n  Key 4 2 4 0 0 0 0 0 0\n"
      "  Behaviors 5 2\n}\n");
  const auto again = parse_ok(write_lw(v3));
  CHECK(again.channels[0].keys.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(again.channels[0].keys[k].value == v3.channels[0].keys[k].value);
    CHECK(again.channels[0].keys[k].params == v3.channels[0].keys[k].params);
    CHECK(again.channels[0].keys[k].shape == v3.channels[0].keys[k].shape);
  }
  CHECK(again.channels[0].pre_behavior == kLinearBehavior);
  std::string why;
  CHECK_FALSE(convert_version(v3, 1, 30, &why).has_value());  // Hermite/Bezier keys have no v1 form
  CHECK_THAT(why, Catch::Contains("only TCB and linear"));

  const auto v1 = parse_ok("LWMO\n1\n9\n2\n1 2 3 90 -45 180 1 1 1\n0 0 0 0 0\n4 5 6 0 0 0 2 2 2\n30 1 0.5 0 0\n");
  const auto as_v3 = convert_version(v1, 3, 30, &why);
  REQUIRE(as_v3);
  CHECK(as_v3->channels[3].keys[0].value == Approx(std::numbers::pi / 2));
  CHECK(as_v3->channels[0].keys[1].time == 1.0);
  const auto back = convert_version(parse_ok(write_lw(*as_v3)), 1, 30, &why);
  REQUIRE(back);
  CHECK(back->channels[5].keys[0].value == Approx(180.0));
  CHECK(back->channels[0].keys[1].time == 30.0);
  CHECK(back->channels[0].keys[1].linear_flag == 1);
  CHECK(write_lw(parse_ok(write_lw(v1))) == write_lw(v1));
}
