#include <catch2/catch.hpp>
#include <cmath>

#include "formats/lightwave/lw_evaluate.h"
#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_writer.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::lightwave;

namespace {

Channel channel_of(std::vector<Key> keys, int pre = kConstant, int post = kConstant) {
  Channel channel;
  channel.keys = std::move(keys);
  channel.pre_behavior = pre;
  channel.post_behavior = post;
  return channel;
}

Key key(double time, double value, int shape, std::array<double, 6> params = {}) {
  Key k;
  k.time = time;
  k.value = value;
  k.shape = shape;
  k.params = params;
  return k;
}

}  // namespace

TEST_CASE("each span shape interpolates as the SDK reference does", "[lightwave][evaluate]") {
  // TCB with no neighbours and T=C=B=0: tangents equal the span's change, Hermite gives the midpoint.
  CHECK(evaluate(channel_of({key(0, 0, kTcb), key(1, 1, kTcb)}), 0.5) == Approx(0.5));
  // ... and with both tangents equal to the change, the Hermite blend is a straight line.
  CHECK(evaluate(channel_of({key(0, 0, kTcb), key(1, 1, kTcb)}), 0.25) == Approx(0.25));
  // With neighbours and tension 1 the tangents vanish: an ease-in/ease-out (3s^2 - 2s^3).
  CHECK(evaluate(channel_of({key(0, 0, kTcb, {1, 0, 0}), key(1, 1, kTcb, {1, 0, 0})}), 0.25) == Approx(0.15625));
  CHECK(evaluate(channel_of({key(0, 2, kTcb), key(4, 6, kLinear)}), 1.0) == Approx(3.0));
  CHECK(evaluate(channel_of({key(0, 2, kTcb), key(4, 6, kStepped)}), 3.999) == 2.0);
  CHECK(evaluate(channel_of({key(0, 2, kTcb), key(4, 6, kStepped)}), 4.0) == 6.0);
  // Hermite: the stored tangents drive the curve (p5 leaving k0, p4 arriving at k1).
  const auto hermite = channel_of({key(0, 0, kHermite, {0, 0, 0, 0, 2, 0}), key(1, 0, kHermite, {0, 0, 0, -2, 0, 0})});
  CHECK(evaluate(hermite, 0.5) == Approx(0.125 * 2 + (-0.125) * -2));
  // 2D Bezier with symmetric handles passes through the midpoint.
  const auto bezier = channel_of({key(0, 0, kBezier2D, {0, 0, 1.0 / 3, 0, 0, 0}), key(1, 1, kBezier2D, {-1.0 / 3, 0, 0, 0, 0, 0})});
  CHECK(evaluate(bezier, 0.5) == Approx(0.5).margin(1e-9));
  CHECK(evaluate(bezier, 0.1) < 0.1);  // flat handles: slow start
}

TEST_CASE("evaluation at a key's time returns the key's value, for every real file", "[lightwave][evaluate][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real LightWave files");
  std::size_t keys_checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*shared / "corpus/real/lightwave")) {
    if (!entry.is_regular_file()) continue;
    auto parsed = parse_lw(test::read_bytes(entry.path()));
    INFO(entry.path().string());
    REQUIRE(parsed.ok());
    for (const auto& channel : parsed.value().channels)
      for (const auto& k : channel.keys) {
        CHECK(evaluate(channel, k.time) == k.value);
        ++keys_checked;
      }
  }
  CHECK(keys_checked == 10735);  // 4 x 289 x 9 (eech) + 13 + 19 (derived) + 299 (astrofra)
}

TEST_CASE("interior TCB tangents reproduce what LightWave wrote into p4/p5", "[lightwave][evaluate][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the LightWave-written tangents");
  std::size_t compared = 0;
  for (const char* name : {"move_y_pre_ofrep_post_osc_simple_cube.mot", "move_xz_bezier_simple_cube.mot"}) {
    auto parsed = parse_lw(test::read_bytes(*shared / "corpus/real/lightwave/derived-from-assimp" / name));
    REQUIRE(parsed.ok());
    for (const auto& channel : parsed.value().channels)
      for (std::size_t k = 1; k + 1 < channel.keys.size(); ++k) {
        if (channel.keys[k].shape != kTcb) continue;
        CHECK(incoming_tangent(channel, k) == Approx(channel.keys[k].params[3]).margin(1e-9));
        CHECK(outgoing_tangent(channel, k) == Approx(channel.keys[k].params[4]).margin(1e-9));
        ++compared;
      }
  }
  CHECK(compared == 1);  // channel 1 of move_y: p4 0.58182278100182028, p5 0.40727594670127421
}

TEST_CASE("every behaviour before the first and after the last key (first key not at 0)", "[lightwave][evaluate]") {
  // Keys (1, 1) and (3, 5), linear: value(t) = 2t - 1 inside; length 2.
  auto with = [](int pre, int post) { return channel_of({key(1, 1, kLinear), key(3, 5, kLinear)}, pre, post); };
  CHECK(evaluate(with(kReset, kReset), 0.5) == 0.0);
  CHECK(evaluate(with(kReset, kReset), 4.0) == 0.0);
  CHECK(evaluate(with(kConstant, kConstant), 0.5) == 1.0);
  CHECK(evaluate(with(kConstant, kConstant), 4.0) == 5.0);
  // Repeat: t = 4.5 -> 2.5 (value 4); t = 0.5 -> 2.5. The SDK sample's wrap would give 0.5 -> 1 here.
  CHECK(evaluate(with(kRepeat, kRepeat), 4.5) == Approx(4.0));
  CHECK(evaluate(with(kRepeat, kRepeat), 0.5) == Approx(4.0));
  // Oscillate: odd cycles run backwards about the span: 4.5 -> 2.5 -> 1.5 (value 2).
  CHECK(evaluate(with(kOscillate, kOscillate), 4.5) == Approx(2.0));
  CHECK(evaluate(with(kOscillate, kOscillate), 0.5) == Approx(2.0));
  CHECK(evaluate(with(kOscillate, kOscillate), 6.5) == Approx(4.0));  // even cycle: forwards, 6.5 -> 2.5
  // Offset repeat: each cycle shifts by last - first = 4.
  CHECK(evaluate(with(kOffsetRepeat, kOffsetRepeat), 4.5) == Approx(8.0));
  CHECK(evaluate(with(kOffsetRepeat, kOffsetRepeat), 0.5) == Approx(0.0));
  CHECK(evaluate(with(kOffsetRepeat, kOffsetRepeat), 7.0) == Approx(13.0));
  // Linear: along the end tangents (slope 2).
  CHECK(evaluate(with(kLinearBehavior, kLinearBehavior), 0.5) == Approx(0.0));
  CHECK(evaluate(with(kLinearBehavior, kLinearBehavior), 4.0) == Approx(7.0));
  // A single key is a constant whatever the behaviours say.
  CHECK(evaluate(channel_of({key(2, 9, kTcb)}, kReset, kOffsetRepeat), 100.0) == 9.0);
}

TEST_CASE("v1 linear flag: the key is a Linear key (span ending at it and tangent leaving it)", "[lightwave][evaluate]") {
  // Frames 0, 10, 20, 30 with values 0, 10, 0, 20, tension 0.5; key 20 has the linear flag.
  auto parsed = parse_lw(test::bytes_of("LWEN\n1\n1\n4\n0\n0 0 0.5 0 0\n10\n10 0 0.5 0 0\n0\n20 1 0.5 0 0\n20\n30 0 0.5 0 0\n"));
  REQUIRE(parsed.ok());
  const auto& channel = parsed.value().channels[0];
  CHECK(evaluate(channel, 15) == Approx(5.0));  // the span ending at the linear key is a straight line
  // Leaving key 20 with the linear formula: out = 0.5 * ((0 - 10) + 20) = 5; arriving at 30: 0.5 * 20 = 10.
  CHECK(evaluate(channel, 25) == Approx(0.5 * 20 + 0.125 * 5 - 0.125 * 10));  // 9.375
  // Reading the flag as "only the span ending here is linear" would leave with the TCB tangent
  // 0.5 * (0.5 * -10 + 0.5 * 20) = 2.5 and give 9.0625: the two readings differ here.
  CHECK(evaluate(channel, 25) != Approx(9.0625));
}

TEST_CASE("files written for every shape and behaviour read back and evaluate the same", "[lightwave][evaluate]") {
  std::size_t files = 0;
  for (int shape = kTcb; shape <= kBezier2D; ++shape)
    for (int behavior = kReset; behavior <= kLinearBehavior; ++behavior) {
      LwFile file;
      file.kind = FileKind::envelope;
      file.version = 3;
      Channel channel;
      channel.pre_behavior = behavior;
      channel.post_behavior = (behavior + 3) % 6;
      channel.keys = {key(0.5, 1, shape, {0.2, -0.1, 0.3, 0.5, 0.4, 0}), key(1.25, -2, shape, {-0.3, 0.25, 0.1, -0.6, 0.2, 0}),
                      key(2.0, 0.5, shape, {0.1, 0.1, -0.2, 0.3, -0.1, 0}), key(3.5, 4, shape, {-0.2, 0.5, 0.2, 0.1, 0.3, 0})};
      file.channels.push_back(channel);
      auto parsed = parse_lw(test::bytes_of(write_lw(file)));
      INFO("shape " << shape << " behaviour " << behavior);
      REQUIRE(parsed.ok());
      const auto& read = parsed.value().channels[0];
      for (double t : {-2.0, 0.0, 0.5, 0.9, 1.25, 1.6, 2.7, 3.5, 4.1, 9.3}) CHECK(evaluate(read, t) == evaluate(channel, t));
      for (const auto& k : read.keys) CHECK(evaluate(read, k.time) == k.value);
      ++files;
    }
  CHECK(files == 36);
}
