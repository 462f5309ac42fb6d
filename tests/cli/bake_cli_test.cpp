// Issue 39 item 4: CSV a modder can use. Each bake row names its animation by slot and name and its
// bone by number and name; rotations can be had as quaternions or Euler angles.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <sstream>

#include "cli/exit_codes.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Row {
  std::string slot, animation, bone, bone_name, channel;
  double time = 0, value = 0;
};

std::vector<Row> rows_of(const std::string& csv) {
  std::vector<Row> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    if (fields.size() < 7) continue;
    rows.push_back({fields[0], fields[1], fields[2], fields[3], fields[4], std::stod(fields[5]), std::stod(fields[6])});
  }
  return rows;
}

}  // namespace

TEST_CASE("bake rows name their animation by slot and name and their bone by name", "[cli][export][bake]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string()}).code == 0);
  const auto bake = test::run({"export", (dir / "s/files/chr/nar/0000.mot").string(), "--slot", "0x90", "--bake", "60"});
  REQUIRE(bake.code == kExitOk);
  CHECK(bake.out.rfind("slot,animation,bone,bone_name,channel,time,value\r\n", 0) == 0);
  const auto rows = rows_of(bake.out);
  REQUIRE_FALSE(rows.empty());
  bool hip = false;
  for (const auto& row : rows) {
    CHECK(row.slot == "144");
    CHECK(row.animation == "0x0090");
    hip |= row.bone == "3" && row.bone_name == "hip";
  }
  CHECK(hip);
}

TEST_CASE("bake --rotations quaternion and euler, besides the format's own form", "[cli][export][bake]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string(), "--kh2", "--nsbca"}).code == 0);
  const auto door = (dir / "s/nds/data/door.nsbca").string();
  const auto native = rows_of(test::run({"export", door, "--anim", "open", "--bake", "60"}).out);
  const auto quaternion = rows_of(test::run({"export", door, "--anim", "open", "--bake", "60", "--rotations", "quaternion"}).out);
  const auto euler = rows_of(test::run({"export", door, "--anim", "open", "--bake", "60", "--rotations", "euler"}).out);
  // Per node and time: the matrix cells, the quaternion and the angles.
  std::map<std::pair<std::string, double>, std::map<std::string, double>> at;
  for (const auto* rows : {&native, &quaternion, &euler})
    for (const auto& row : *rows) at[{row.bone, row.time}][row.channel] = row.value;
  std::size_t checked = 0;
  for (const auto& [key, channels] : at) {
    if (!channels.count("R.m00")) continue;
    REQUIRE(channels.count("R.qw"));
    REQUIRE(channels.count("R.ez"));
    const double x = channels.at("R.qx"), y = channels.at("R.qy"), z = channels.at("R.qz"), w = channels.at("R.qw");
    CHECK(std::abs(x * x + y * y + z * z + w * w - 1.0) < 1e-8);  // unit (printed with 9 digits)
    // The quaternion's matrix (row vectors) is the stored one, to the DS's 1/4096 steps:
    // m01 = 2(xy + zw), m00 = 1 - 2(y^2 + z^2).
    constexpr double kStep = 2.0 / 4096;  // a cell may sit a step off the unit circle: 4095/4096 for 1
    CHECK(std::abs(2 * (x * y + z * w) - channels.at("R.m01")) < kStep);
    CHECK(std::abs(1 - 2 * (y * y + z * z) - channels.at("R.m00")) < kStep);
    // The door turns about z: the angle's cosine and sine are the cells.
    CHECK(std::abs(std::cos(channels.at("R.ez")) - channels.at("R.m00")) < kStep);
    CHECK(std::abs(std::sin(channels.at("R.ez")) - channels.at("R.m01")) < kStep);
    ++checked;
  }
  CHECK(checked > 5);
  for (const auto& row : quaternion) CHECK(row.channel.rfind("R.m", 0) != 0);

  // KH2 keys Euler angles: a node keyed on all three axes gets a quaternion, the others keep theirs.
  const auto kh2 = test::run_capturing({"export", (dir / "s/kh2/obj/P_SAMPLE.mset").string(), "--slot", "0", "--bake",
                                        "30", "--rotations", "quaternion"});
  CHECK(kh2.code == kExitOk);
  // GNT's rotation is a direction and a twist: refused, with the reason.
  const auto gnt = test::run_capturing({"export", (dir / "s/files/chr/nar/0000.mot").string(), "--slot", "0x90",
                                        "--bake", "60", "--rotations", "quaternion"});
  CHECK(gnt.code == kExitUsage);
  CHECK(gnt.err.find("a direction and a twist") != std::string::npos);
}
