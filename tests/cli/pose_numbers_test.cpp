// Issue 39 item 1: at a key's own time every format gives that key's stored value exactly, found in
// the file's own time unit (GNT float32 seconds, not a double that misses the key by 1e-8); between
// keys a value computed from float32 data prints no more digits than a float32 holds.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "core/number_text.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

std::vector<std::string> csv_cells(const std::string& csv) {
  std::vector<std::string> cells;
  std::string cell;
  for (const char c : csv) {
    if (c == ',' || c == '\n' || c == '\r') {
      if (!cell.empty()) cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  if (!cell.empty()) cells.push_back(cell);
  return cells;
}

bool has_cell(const std::string& csv, const std::string& text) {
  const auto cells = csv_cells(csv);
  return std::find(cells.begin(), cells.end(), text) != cells.end();
}

}  // namespace

TEST_CASE("pose at a GNT key's frame or time prints the key's stored value (issue 39)", "[cli][pose][numbers]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string()}).code == 0);
  const auto mot = (dir / "s/files/chr/nar/0000.mot").string();
  const auto at_frame_8 = test::run({"pose", mot, "--slot", "0x90", "--frame", "8", "--format", "csv"});
  REQUIRE(at_frame_8.code == 0);
  CHECK(has_cell(at_frame_8.out, "1.40625"));
  CHECK_FALSE(has_cell(at_frame_8.out, "1.4062499"));
  const auto at_time = test::run({"pose", mot, "--slot", "0x90", "--time", "0.13333334", "--format", "csv"});
  REQUIRE(at_time.code == 0);
  CHECK(has_cell(at_time.out, "0.087890625"));
  CHECK_FALSE(has_cell(at_time.out, "0.0878906263"));
  // Frame 15 of slot 0 is no key of the hip's R (its keys are at frames 14, -32.5, and 24, 49.5):
  // the value there is computed from float32 times and values, -24.3000007..., and prints as the
  // shortest text of its float32, no more digits than the data holds.
  const auto hip = test::run({"pose", mot, "--slot", "0", "--frame", "15", "--format", "csv"});
  REQUIRE(hip.code == 0);
  CHECK(has_cell(hip.out, "-24.300001"));
  CHECK_FALSE(has_cell(hip.out, "-24.3000007"));
  // export --bake at the file's rate samples every key's frame: the same stored texts.
  const auto bake = test::run({"export", mot, "--slot", "0x90", "--bake", "60"});
  REQUIRE(bake.code == 0);
  CHECK(bake.out.find(",1.40625\r\n") != std::string::npos);
  CHECK(bake.out.find("1.4062499") == std::string::npos);
}

TEST_CASE("pose at every key's time of every sample GNT animation gives that key's values", "[cli][pose][numbers]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string()}).code == 0);
  const auto mot = (dir / "s/files/chr/nar/0000.mot").string();
  const auto info = nlohmann::json::parse(test::run({"info", mot, "--format", "json"}).out);
  std::size_t checked = 0;
  for (const auto& animation : info["animations"]) {
    const auto slot = std::to_string(animation["slot"].get<std::int64_t>());
    std::set<double> times;
    for (const auto& track : animation["tracks"])
      for (const auto& key : track["keys"]) times.insert(key["time"].get<double>());
    for (const double time : times) {
      const auto pose = test::run({"pose", mot, "--slot", slot, "--time", number_text(time), "--format", "json"});
      REQUIRE(pose.code == 0);
      const auto nodes = nlohmann::json::parse(pose.out)["nodes"];
      for (const auto& track : animation["tracks"]) {
        const auto channel = track["channels"].get<std::string>();
        if (channel.size() != 1) continue;  // one of T, R, S per GNT track
        for (const auto& key : track["keys"]) {
          if (key["time"].get<double>() != time || key["x"].is_null()) continue;
          // Of two keys at one time the later wins: check the last key at this time only.
          bool later = false;
          for (const auto& other : track["keys"]) later |= &other > &key && other["time"] == key["time"];
          if (later) continue;
          for (const auto& node : nodes) {
            if (node["node"] != track["bone_id"]) continue;
            const auto& vector = node[channel];
            INFO("slot " << slot << " time " << time << " bone " << track["bone_id"] << " " << channel);
            CHECK(vector[0] == key["x"]);
            CHECK(vector[1] == key["y"]);
            CHECK(vector[2] == key["z"]);
            if (channel == "R") CHECK(vector[3] == key["w"]);
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 20);
}
