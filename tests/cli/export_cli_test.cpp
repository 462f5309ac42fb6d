// `export --bake` streams an animation at a time (a whole motion set at a high rate is gigabytes of
// text), and its errors print times as the file stored them.
#include <catch2/catch.hpp>

#include "formats/curve_sampling.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("export --bake streams every animation once, with one header, to stdout and to --out alike", "[cli][export]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 1, true);
  const auto set = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
  const auto streamed = test::run({"export", set, "--bake", "3000"});  // more rows than one chunk holds
  REQUIRE(streamed.code == 0);
  CHECK(test::count_of(streamed.out, "slot,animation,bone,bone_name,channel,time,value") == 1);
  CHECK(test::count_of(streamed.out, "\n") > 4096);
  REQUIRE(test::run({"export", set, "--bake", "3000", "--out", (dir / "set.csv").string()}).code == 0);
  CHECK(test::read_text(dir / "set.csv") == streamed.out);
  // Each animation's rows come together: the animation column changes once per animation.
  std::vector<std::string> order;
  std::size_t at = streamed.out.find('\n') + 1;
  while (at < streamed.out.size()) {
    const auto comma = streamed.out.find(',', at);
    const auto name = streamed.out.substr(at, comma - at);
    if (order.empty() || order.back() != name) order.push_back(name);
    at = streamed.out.find('\n', at) + 1;
  }
  std::vector<std::string> unique = order;
  std::sort(unique.begin(), unique.end());
  CHECK(std::unique(unique.begin(), unique.end()) == unique.end());
  CHECK(order.size() > 1);
}

TEST_CASE("a refused bake leaves no file behind", "[cli][export]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 1, true);
  const auto refused = test::run_capturing({"export", (dir / "s/kh2/obj/P_SAMPLE.mset").string(), "--bake", "1e9",
                                            "--out", (dir / "x.csv").string()});
  CHECK(refused.code == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "x.csv"));
  CHECK(std::filesystem::directory_iterator(dir.path())->path().filename() == "s");  // no temporary either
}

TEST_CASE("a bake's error prints a float32 end time as the file stored it", "[cli][export]") {
  const auto error = too_many_samples(0, static_cast<double>(1.35f), 1e9);
  CHECK_THAT(error.message, Catch::StartsWith("0 to 1.35 s at 1000000000 samples per second"));
}

TEST_CASE("one animation's samples are bounded before they are made, whatever the rate", "[cli][export]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 1, false);
  std::string mot;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "s/files/chr"))
    if (entry.path().filename() == "0000.mot") mot = entry.path().string();
  // 22 bones of a 1.25 s animation at 200,000 per second: 55 M samples, refused before one is made.
  const auto refused = test::run_capturing({"export", mot, "--slot", "0", "--bake", "200000"});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("one animation may hold; lower the rate"));
  CHECK(refused.out.empty());
  CHECK(check_animation_samples(1000, 8000, 60) == std::nullopt);
  CHECK(check_animation_samples(1001, 8000, 60).has_value());
}
