// One input per rule of the LightWave note's "Validation" list: each is rejected with the
// byte offset of the offending token and what was expected there.
#include <catch2/catch.hpp>

#include "formats/lightwave/lw_parser.h"
#include "support/corrupt_input.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::lightwave;

namespace {

void check_rejected(const std::string& text, const std::string& at_token, const std::string& expected) {
  INFO(text);
  test::expect_parse_error(parse_lw(test::bytes_of(text)), expected,
                           at_token.empty() ? text.size() : text.find(at_token));
}

const std::string kV1Head = "LWMO\n1\n1\n";
const std::string kEnvelopeStart = "LWMO\n3\n\nNumChannels 1\nChannel 0\n{ Envelope\n";

}  // namespace

TEST_CASE("LightWave magic and version are checked", "[lightwave][corrupt]") {
  check_rejected("LWOB\n1\n", "LWOB", "the magic LWMO or LWEN");
  check_rejected("", "", "the magic LWMO or LWEN");
  check_rejected("LWMO\n2\n9\n", "2\n9", "unsupported version 2");
  check_rejected("LWMO\n4\n", "4\n", "unsupported version 4");
  check_rejected("LWMO\n1.5\n", "1.5", "an integer (version)");
  check_rejected("LWMO\n", "", "a version number");
}

TEST_CASE("LightWave v1 rules are enforced", "[lightwave][corrupt]") {
  check_rejected("LWMO\n1\n0\n1\n", "0\n1\n", "at least 1 channel per key");
  check_rejected(kV1Head + "0\n", "0\n", "at least 1 key");
  check_rejected(kV1Head + "2\n5\n0 0 0 0 0\n", "", "12 numbers for 2 keys of 1 channels");
  check_rejected(kV1Head + "1\n5\n0 0 0 0 0\n7\n", "7\n", "the end of the file after 1 keys");
  check_rejected(kV1Head + "2\n5\n3 0 0 0 0\n6\n1 0 0 0 0\n", "1 0 0 0 0\n", "a frame after 3");
  check_rejected(kV1Head + "1\n5\n2.5 0 0 0 0\n", "2.5", "an integer (frame)");
  check_rejected(kV1Head + "1\n5\n0 2 0 0 0\n", "2 0 0 0\n", "a linear flag of 0 or 1");
  check_rejected(kV1Head + "1\n5,0\n0 0 0 0 0\n", "5,0", "a number (channel value)");
  check_rejected(kV1Head + "1\ninf\n0 0 0 0 0\n", "inf", "a finite number");
  check_rejected(kV1Head + "1\nnan\n0 0 0 0 0\n", "nan", "a finite number");
  check_rejected("LWMO\n1\n99999999999\n99999999999\n", "", "numbers for 99999999999 keys");
}

TEST_CASE("LightWave v3 rules are enforced", "[lightwave][corrupt]") {
  check_rejected("LWMO\n3\n\nChannels 1\n", "Channels", "'NumChannels <n>'");
  check_rejected("LWMO\n3\n\nNumChannels 0\n", "0\n", "NumChannels of at least 1");
  check_rejected("LWMO\n3\nNumChannels 1\nChannel 1\n", "Channel 1", "'Channel 0'");
  check_rejected("LWMO\n3\nNumChannels 1\nChannel 0\n{ Curve\n", "{ Curve", "'{ Envelope'");
  check_rejected(kEnvelopeStart + "  0\n", "  0\n", "a key count of at least 1");
  check_rejected(kEnvelopeStart + "  2\n  Key 1 0 0 0 0 0 0 0 0\n  Behaviors 1 1\n}\n", "  Behaviors",
                 "2 Key lines before Behaviors");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n  Key 2 1 0 0 0 0 0 0 0\n", "  Key 2",
                 "1 Key lines, then Behaviors");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0\n", "  Key 1 0", "(3 to 9 numbers)");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0 0\n", "  Key 1 0", "(3 to 9 numbers)");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 6 0 0 0 0 0 0\n", "6 0 0", "a shape from 0 to 5");
  check_rejected(kEnvelopeStart + "  2\n  Key 1 5 0 0 0 0 0 0 0\n  Key 2 4 0 0 0 0 0 0 0\n", "4 0 0",
                 "a time at or after 5");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n  Behaviors 1 6\n", "6\n", "a behaviour from 0 to 5");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n  Behaviors 1\n", "  Behaviors",
                 "'Behaviors <pre> <post>'");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n}\n", "}\n", "a Behaviors line before '}'");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n  Behaviors 1 1\n", "", "'}' closing the envelope");
  check_rejected(kEnvelopeStart + "  1\n  Key 1 0 0 0 0 0 0 0 0\n  Behaviors 1 1\n}\nChannel 1\n", "Channel 1",
                 "only whitespace after the last channel");
  check_rejected(kEnvelopeStart + "  1\n  Key x 0 0 0 0 0 0 0 0\n", "x 0", "a number (key value)");
  check_rejected("LWMO\n3 3\n", "3\n", "the end of the line after the version");
}

TEST_CASE("Kuper files are checked", "[lightwave][kuper][corrupt]") {
  auto missing = parse_kuper(test::bytes_of("0 1 2\n"));
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message(), Catch::Contains("Axes = <name>"));
  auto short_line = parse_kuper(test::bytes_of("Axes = A, B\n1 2\n3\n"));
  REQUIRE_FALSE(short_line.ok());
  CHECK(short_line.error().offset == 16);
  CHECK_THAT(short_line.error().message(), Catch::Contains("2 numbers (one per axis) on frame line 3"));
  auto no_frames = parse_kuper(test::bytes_of("Axes = A, B\n"));
  REQUIRE_FALSE(no_frames.ok());
  CHECK_THAT(no_frames.error().message(), Catch::Contains("at least one frame line"));
  auto empty_name = parse_kuper(test::bytes_of("Axes = A,, B\n1 2 3\n"));
  REQUIRE_FALSE(empty_name.ok());
  CHECK_THAT(empty_name.error().message(), Catch::Contains("non-empty axis name"));
}
