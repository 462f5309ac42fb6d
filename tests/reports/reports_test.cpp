// The reports on two generated versions of a dump: exact reuse groups, exact diffs, markdown
// snapshots (tests/reports/snapshots/; ANIMDEX_UPDATE_SNAPSHOTS=1 rewrites them), the docs pages,
// the HTML's self-containment, and readability: one line per diff row, bones and KH2 states by
// name, members as relative paths, JSON lists as arrays, no absolute path in the docs.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "db/database.h"
#include "indexer/pipeline.h"
#include "formats/registry.h"
#include "reports/diff_report.h"
#include "reports/docs_report.h"
#include "reports/report_fixture.h"
#include "reports/reuse_report.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::reports;

namespace {

using test::read_text;

// Indexes v1 as "v1" and v2 as "v2" into one database, and each into its own database too.
struct Fixture {
  test::TempDir dir;
  std::filesystem::path both, first, second;
  Fixture() {
    test::write_report_dump(dir / "v1", 1);
    test::write_report_dump(dir / "v2", 2);
    both = dir / "both.db";
    first = dir / "v1.db";
    second = dir / "v2.db";
    for (const auto& [root, database, label] :
         std::vector<std::tuple<std::string, std::filesystem::path, std::string>>{
             {"v1", both, "v1"}, {"v2", both, "v2"}, {"v1", first, "ntsc"}, {"v2", second, "pal"}}) {
      test::index_tree(dir / root, database, label);
    }
  }
};

std::vector<std::string> column(const ResultTable& table, const std::string& name) {
  const auto at = std::find(table.columns.begin(), table.columns.end(), name) - table.columns.begin();
  std::vector<std::string> values;
  for (const auto& row : table.rows) values.push_back(cell_text(row[static_cast<std::size_t>(at)]));
  return values;
}

std::string render(const std::string& title, const std::vector<Section>& sections, OutputFormat format) {
  std::ostringstream out;
  write_sections(out, title, sections, format);
  return out.str();
}

void check_snapshot(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(ANIMDEX_SOURCE_DIR) / "tests/reports/snapshots" / name;
  if (std::getenv("ANIMDEX_UPDATE_SNAPSHOTS")) {
    std::ofstream(path, std::ios::binary) << text;
    WARN("updated " << path.string());
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(text == expected.str());
}

}  // namespace

TEST_CASE("report reuse finds exactly the shared animations, reused tracks and near-identical pair", "[reports]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  ReuseOptions options;
  options.dump = "v1";
  const auto report = build_reuse_report(db, options);
  REQUIRE(report.identical.size() == 1);  // the Throw, in three characters
  const auto& throw_group = report.identical[0];
  CHECK(throw_group.members.size() == 3);
  std::vector<std::string> owners;
  for (const auto& member : throw_group.members) owners.push_back(member.owner + " " + member.animation_key);
  CHECK(owners == std::vector<std::string>{"hak 320", "kak 320", "sas 320"});
  CHECK(throw_group.members[0].name == "Throw");

  REQUIRE(report.tracks.size() == 1);  // the hand sign: bone 20 in sas 5B and kak 5A
  CHECK(report.tracks[0].bone_id == 20);
  CHECK(report.tracks[0].key_count == 4);
  REQUIRE(report.tracks[0].members.size() == 2);
  CHECK(report.tracks[0].members[0].owner == "kak");
  CHECK(report.tracks[0].members[0].animation_key == "160");
  CHECK(report.tracks[0].members[1].owner == "sas");
  CHECK(report.tracks[0].members[1].animation_key == "144");

  REQUIRE(report.near_identical.size() == 1);  // hak's and kak's Walk, 0.0005 apart
  CHECK(report.near_identical[0].members.size() == 2);
  CHECK(report.near_identical[0].members[0].owner == "hak");
  CHECK(report.near_identical[0].members[1].owner == "kak");
  CHECK(report.near_identical[0].largest_difference == Approx(0.0005).margin(1e-6));
  // A tighter tolerance separates them.
  options.tolerance = 1e-4;
  CHECK(build_reuse_report(db, options).near_identical.empty());
  // Every dump at once: v2 keeps the Throw group; kak lost 5A, so the hand sign is no longer shared.
  options = {};
  const auto all = build_reuse_report(db, options);
  CHECK(all.identical.size() == 2);
  CHECK(all.tracks.size() == 1);
  CHECK(all.near_identical.size() == 2);
}

TEST_CASE("diff lists exactly the changes between two versions, by labels or by databases", "[reports]") {
  Fixture fixture;
  auto both = open_read_only(fixture.both);
  const auto report = build_diff(both, "v1", both, "v2");
  std::vector<std::string> files;
  for (const auto& file : report.files) files.push_back(file.path + " " + file.change);
  CHECK(files == std::vector<std::string>{"files/chr/hak/0000.mot changed", "files/chr/kak/0000.mot changed",
                                          "files/chr/loc/0000.mot removed", "files/chr/nar/0000.mot added",
                                          "files/chr/sas/0000.mot changed"});
  CHECK(report.unchanged_files == 0);
  std::vector<std::string> animations;
  for (const auto& animation : report.animations)
    animations.push_back(animation.owner + " " + animation.animation_key + " " + animation.change);
  CHECK(animations == std::vector<std::string>{"hak 49 added", "kak 160 removed", "loc 0 removed", "nar 0 added",
                                               "sas 144 changed"});
  CHECK(report.unchanged_animations == 8);  // sas 2, hak 3, kak 3
  const auto& changed = report.animations.back();
  REQUIRE(changed.tracks.size() == 3);
  CHECK(changed.tracks[0].track == "bone 1 (X) R");
  CHECK(changed.tracks[0].keys_before == 3);
  CHECK(changed.tracks[0].keys_after == 3);
  CHECK(*changed.tracks[0].largest_value_change == Approx(1.5));
  CHECK(changed.tracks[1].track == "bone 2 (Z) R");
  CHECK(changed.tracks[1].keys_before == 3);
  CHECK(changed.tracks[1].keys_after == 4);
  CHECK(changed.tracks[2].track == "bone 3 (hip) R");
  CHECK(changed.tracks[2].largest_value_change == 3.234375);

  // Two database files, one dump each: the same answer.
  auto first = open_read_only(fixture.first);
  auto second = open_read_only(fixture.second);
  const auto across = build_diff(first, sole_dump(first, "the first database"), second,
                                 sole_dump(second, "the second database"));
  CHECK(across.from_label == "ntsc");
  CHECK(across.to_label == "pal");
  CHECK(across.files.size() == report.files.size());
  CHECK(across.animations.size() == report.animations.size());
  CHECK_THROWS_WITH(sole_dump(both, "the first database"), Catch::Contains("several dumps (v1, v2)"));
  CHECK_THROWS_WITH(build_diff(both, "v1", both, "v3"), Catch::Contains("no dump labelled 'v3'"));
}

TEST_CASE("report and diff markdown match their snapshots", "[reports][snapshot]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  ReuseOptions options;
  options.dump = "v1";
  check_snapshot("reuse-v1.md", render("Animation reuse", reuse_sections(build_reuse_report(db, options), options, false),
                                       OutputFormat::markdown));
  check_snapshot("diff-v1-v2.md",
                 render("Changes from v1 to v2", diff_sections(build_diff(db, "v1", db, "v2"), false),
                        OutputFormat::markdown));
}

TEST_CASE("report docs writes wiki pages and one self-contained HTML page, deterministically", "[reports][docs]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  DocsOptions options;
  options.out = fixture.dir / "docs";
  const auto summary = write_docs(db, options);
  std::vector<std::string> written;
  for (const auto& file : summary.files) written.push_back(file.generic_string());
  // Per dump its wiki pages and a curve page per character; then the index, the HTML page and the curves' index.
  CHECK(written == std::vector<std::string>{"v1/characters.md", "v1/animation-ids.md", "v1/bones.md", "v1/files.md",
                                            "v1/reuse.md", "v1/curves/hak.html", "v1/curves/kak.html",
                                            "v1/curves/loc.html", "v1/curves/sas.html", "v2/characters.md",
                                            "v2/animation-ids.md", "v2/bones.md", "v2/files.md", "v2/reuse.md",
                                            "v2/curves/hak.html", "v2/curves/kak.html", "v2/curves/nar.html",
                                            "v2/curves/sas.html", "README.md", "animdex-docs.html", "index.html"});
  const auto read = [&](const std::string& relative) {
    std::ifstream in(options.out / relative, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  check_snapshot("docs-v1-animation-ids.md", read("v1/animation-ids.md"));
  check_snapshot("docs-v1-bones.md", read("v1/bones.md"));
  CHECK_THAT(read("README.md"), Catch::Contains("| v1 |") && Catch::Contains("[Bones](v1/bones.md)"));
  const std::string html = read("animdex-docs.html");
  CHECK_THAT(html, Catch::Contains("<svg class=\"chart\" id=\"heatmap-v1\"") &&
                       Catch::Contains("<svg class=\"chart\" id=\"reuse-chart\""));
  // Self-contained: no external resources.
  CHECK_THAT(html, !Catch::Contains("http://") || Catch::Contains("xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  // Deterministic: a second run writes the same bytes.
  DocsOptions again = options;
  again.out = fixture.dir / "docs-again";
  write_docs(db, again);
  std::ifstream second(again.out / "animdex-docs.html", std::ios::binary);
  std::stringstream second_text;
  second_text << second.rdbuf();
  CHECK(second_text.str() == html);
  // One dump only.
  options.dump = "v2";
  options.out = fixture.dir / "docs-v2";
  CHECK(write_docs(db, options).files.size() == 12);  // 5 wiki pages, 4 curve pages, README, HTML, index
  options.dump = "nope";
  CHECK_THROWS_WITH(write_docs(db, options), Catch::Contains("no dump labelled 'nope'"));
}

TEST_CASE("reports in csv and json carry the same rows", "[reports]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  ReuseOptions options;
  options.dump = "v1";
  const auto sections = reuse_sections(build_reuse_report(db, options), options, false);
  const std::string csv = render("r", sections, OutputFormat::csv);
  CHECK_THAT(csv, Catch::StartsWith("section,dump,group,animation_ids"));
  CHECK_THAT(csv, Catch::Contains("identical,v1,1,320,Throw,\"hak, kak, sas\",3,3"));
  CHECK_THAT(csv, Catch::Contains("tracks,v1,"));
  CHECK_THAT(csv, Catch::Contains("near,v1,1,1,Walk Forward,\"hak, kak\""));
  const std::string json = render("r", sections, OutputFormat::json);
  CHECK_THAT(json, Catch::Contains("\"identical\": [") && Catch::Contains("\"owner_count\": 3"));
  CHECK(nlohmann::json::parse(json).at("near").at(0).at("largest_difference") == 0.0005);
  CHECK(column(sections[0].table, "owners") == std::vector<std::string>{"hak, kak, sas"});
  // TSV and JSON Lines carry them too (a format the reports did not handle would print nothing).
  CHECK_THAT(render("r", sections, OutputFormat::tsv), Catch::StartsWith("section\tdump\tgroup\tanimation_ids"));
  std::istringstream lines(render("r", sections, OutputFormat::jsonl));
  std::vector<std::string> line_sections;
  for (std::string line; std::getline(lines, line);) line_sections.push_back(nlohmann::json::parse(line).at("section"));
  CHECK(line_sections == std::vector<std::string>{"identical", "tracks", "near"});
}

TEST_CASE("the diff is reachable as SQL: diff-files and diff-animations agree with diff", "[reports]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  const auto report = build_diff(db, "v1", db, "v2");
  const auto files = test::run_named(db, "diff-files", {{"from", "v1"}, {"to", "v2"}});
  REQUIRE(files.rows.size() == report.files.size());
  for (std::size_t i = 0; i < files.rows.size(); ++i) {
    CHECK(cell_text(files.rows[i][0]) == report.files[i].path);
    CHECK(cell_text(files.rows[i][2]) == report.files[i].change);
  }
  const auto animations = test::run_named(db, "diff-animations", {{"from", "v1"}, {"to", "v2"}});
  std::vector<std::string> lines;
  for (const auto& row : animations.rows) lines.push_back(cell_text(row[0]) + " " + cell_text(row[2]) + " " + cell_text(row[4]));
  CHECK(lines == std::vector<std::string>{"hak 49 added", "kak 160 removed", "loc 0 removed", "nar 0 added",
                                          "sas 144 changed"});
}

namespace {

// The lines of one section of table output, from its "== title" to the next one.
std::vector<std::string> section_lines(const std::string& text, const std::string& title) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("== ")) inside = line == "== " + title;
    else if (inside) lines.push_back(line);
  }
  return lines;
}

}  // namespace

TEST_CASE("diff table output keeps each animation on one line, with stored numbers and named bones", "[reports][diff]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  const auto report = build_diff(db, "v1", db, "v2");
  const std::string text = render("Changes", diff_sections(report, false), OutputFormat::table);
  const auto animations = section_lines(text, "Animations");
  for (const auto& animation : report.animations) {
    std::vector<std::string> holding;
    for (const auto& line : animations)
      if (line.find(animation.path) != std::string::npos && line.find(" " + animation.change) != std::string::npos)
        holding.push_back(line);
    INFO(animation.path << " " << animation.animation_key);
    REQUIRE(holding.size() == 1);
    CHECK(holding[0].size() < 120);  // a summary, not every track joined
  }
  const auto sas = std::find_if(animations.begin(), animations.end(),
                                [](const std::string& line) { return line.find("sas") == 0; });
  REQUIRE(sas != animations.end());
  CHECK_THAT(*sas, Catch::Contains("3 changed") && Catch::Contains("3.234375"));
  // The tracks follow in their own section, a bone named from GNT4's reference, the change as stored.
  const auto tracks = section_lines(text, "Changed bone tracks");
  const auto hip = std::find_if(tracks.begin(), tracks.end(),
                                [](const std::string& line) { return line.find("bone 3 (hip) R") != std::string::npos; });
  REQUIRE(hip != tracks.end());
  // Its encoding and flags changed too (bf16 -> f32), and the row says so with before and after.
  CHECK_THAT(*hip, Catch::Contains("3.234375") &&
                       Catch::EndsWith("flags 0x202 -> 0x204; value_encoding bf16x4 -> f32x4"));
  CHECK(text.find("3.23438") == std::string::npos);
}

TEST_CASE("bone names are looked up by the game of the file's format", "[reports]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  const BoneNames names(db);
  CHECK(names.of_format("gnt_mot", 3) == "hip");
  CHECK(names.of_game("gnt4", 3) == "hip");
  // GNT4's bone 3 is not another game's bone 3, nor a bone of a format without reference data.
  CHECK_FALSE(names.of_format("kh2_mset", 3).has_value());
  CHECK_FALSE(names.of_format("nsbca", 3).has_value());
  CHECK_FALSE(names.of_format("lw_mot", 3).has_value());
  CHECK(bone_label(3, names.of_format("gnt_mot", 3)) == "bone 3 (hip)");
  CHECK(bone_label(3, names.of_format("nsbca", 3)) == "bone 3");
}

TEST_CASE("KH2 motion-set states are shown by the names of the format note, through the registry", "[reports][kh2]") {
  CHECK(slot_state_name(0) == "battle, weapon");
  CHECK(slot_state_name(1) == "battle, no weapon");
  CHECK(slot_state_name(2) == "field, no weapon");
  CHECK(slot_state_name(3) == "field, weapon");
  CHECK_FALSE(slot_state_name(4).has_value());
  CHECK(name_with_states(std::string("IDLE"), {1}) == "IDLE (battle, no weapon)");
  CHECK(name_with_states(std::nullopt, {0, 3}) == "(battle, weapon / field, weapon)");
  CHECK(name_with_states(std::string("X"), {7}) == "X (state 7)");  // no name in the note: the number stays
  CHECK(name_with_states(std::string("Throw"), {}) == "Throw");

  test::TempDir dir;
  test::write_clean_sample(dir / "sample", 2, true);
  test::index_tree(dir / "sample", dir / "kh2.db", "sample");
  auto db = open_read_only(dir / "kh2.db");
  DocsOptions docs;
  docs.out = dir / "docs";
  write_docs(db, docs);
  const std::string slots = read_text(docs.out / "sample/kh2-motion-sets.md");
  CHECK_THAT(slots, Catch::Contains("| 1 (battle, no weapon) |") && Catch::Contains("| 3 (field, weapon) |"));
  // The HTML page sums each motion set up in one row.
  CHECK_THAT(read_text(docs.out / "animdex-docs.html"), Catch::Contains("<th>dummies_<wbr>t_<wbr>pose</th>"));
  CHECK_FALSE(std::filesystem::exists(docs.out / "sample/kh2-motion-sets"));

  // Past the page limit (a whole game's table is 744 KB), a page per motion set and an index of them.
  DocsOptions split = docs;
  split.out = dir / "split";
  split.markdown_page_limit = 1000;
  write_docs(db, split);
  const std::string index = read_text(split.out / "sample/kh2-motion-sets.md");
  CHECK_THAT(index, Catch::Contains("so each file has a page of its own"));
  CHECK_THAT(index, !Catch::Contains("| 1 (battle, no weapon) |"));
  CHECK_THAT(index, Catch::Contains("| file | parent_slot | slots |"));  // the summary, one row per set
  std::size_t parts = 0, part_rows = 0;
  for (const auto& entry : std::filesystem::directory_iterator(split.out / "sample/kh2-motion-sets")) {
    ++parts;
    const std::string part = read_text(entry.path());
    const auto name = entry.path().filename().string();
    CHECK_THAT(index, Catch::Contains("](kh2-motion-sets/" + name + ")"));
    for (std::size_t at = part.find("\n| "); at != std::string::npos; at = part.find("\n| ", at + 1)) ++part_rows;
  }
  CHECK(parts >= 2);
  // Every slot row of the whole page is on exactly one part; each page has one header row ("| file |"; the
  // rule row starts "|-" and is not counted).
  std::size_t whole_rows = 0;
  for (std::size_t at = slots.find("\n| "); at != std::string::npos; at = slots.find("\n| ", at + 1)) ++whole_rows;
  CHECK(part_rows == whole_rows + parts - 1);
}

TEST_CASE("reuse members are distinct paths relative to the dump root, and JSON lists are arrays", "[reports][json]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  ReuseOptions options;
  options.dump = "v1";
  const auto report = build_reuse_report(db, options);
  REQUIRE(report.identical.size() == 1);
  std::vector<std::string> labels;
  for (const auto& member : report.identical[0].members) labels.push_back(member_label(member));
  // Every character's file is called 0000.mot: only the path tells them apart.
  CHECK(labels == std::vector<std::string>{"files/chr/hak/0000.mot 320 Throw", "files/chr/kak/0000.mot 320 Throw",
                                           "files/chr/sas/0000.mot 320 Throw"});

  const auto json = nlohmann::json::parse(render("r", reuse_sections(report, options, false), OutputFormat::json));
  const auto& group = json.at("identical").at(0);
  CHECK(group.at("owners") == nlohmann::json::array({"hak", "kak", "sas"}));
  CHECK(group.at("animation_ids") == nlohmann::json::array({"320"}));
  REQUIRE(group.at("members").is_array());
  REQUIRE(group.at("members").size() == 3);
  CHECK(group.at("members").at(0).at("path") == "files/chr/hak/0000.mot");
  CHECK(group.at("members").at(0).at("animation") == "320");
  CHECK(group.at("members").at(0).at("name") == "Throw");
  CHECK(json.at("tracks").at(0).at("used_in").size() == 2);
  CHECK(json.at("tracks").at(0).at("owners") == nlohmann::json::array({"kak", "sas"}));
  CHECK(json.at("near").at(0).at("members").size() == 2);
  CHECK(json.at("near").at(0).at("largest_difference") == 0.0005);

  // The diff's changed animation carries its tracks as objects.
  const auto diff = nlohmann::json::parse(render("d", diff_sections(build_diff(db, "v1", db, "v2"), false),
                                                 OutputFormat::json));
  const auto& changed = diff.at("animations").at(4);
  REQUIRE(changed.at("change") == "changed");
  REQUIRE(changed.at("tracks").is_array());
  REQUIRE(changed.at("tracks").size() == 3);
  CHECK(changed.at("tracks").at(2).at("track") == "bone 3 (hip) R");
  CHECK(changed.at("tracks").at(2).at("bone_id") == 3);
  CHECK(changed.at("tracks").at(2).at("bone_name") == "hip");
  CHECK(changed.at("tracks").at(2).at("largest_value_change") == 3.234375);
  CHECK(diff.at("animations").at(0).at("tracks") == nlohmann::json::array());
}

TEST_CASE("report docs writes no absolute path unless asked to show the roots", "[reports][docs]") {
  Fixture fixture;
  auto db = open_read_only(fixture.both);
  const std::string root = std::filesystem::absolute(fixture.dir.path()).string();
  DocsOptions options;
  options.out = fixture.dir / "docs";
  for (const auto& file : write_docs(db, options).files) {
    INFO(file.string());
    CHECK(read_text(options.out / file).find(root) == std::string::npos);
  }
  options.out = fixture.dir / "docs-with-roots";
  options.show_roots = true;
  write_docs(db, options);
  CHECK_THAT(read_text(options.out / "README.md"), Catch::Contains("| root |") && Catch::Contains(root));
  CHECK_THAT(read_text(options.out / "animdex-docs.html"), Catch::Contains("indexed from " + root));
}

TEST_CASE("diff: changed tracks of two KH2 slots of one motion ID are told apart by their states", "[reports][kh2]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "a", 1, true);
  test::write_clean_sample(dir / "b", 1, true);
  // Slot 0 (IDLE, battle with weapon) and slot 2 (IDLE, field without weapon) share motion ID 0 and
  // their data; in b each gets one key value of its own (little-endian float32s the writer lays out).
  const auto set = dir / "b/kh2/obj/P_SAMPLE.mset";
  auto bytes = test::read_bytes(set);
  const auto patch = [&](std::size_t at, float before, float after) {
    float stored = 0;
    std::memcpy(&stored, bytes.data() + at, 4);
    REQUIRE(stored == before);
    std::memcpy(bytes.data() + at, &after, 4);
  };
  patch(0x3F0, 0.5F, 0.685584F);
  patch(0x660, 2.5F, 2.75F);
  test::write_bytes(set, bytes);
  for (const auto* label : {"a", "b"}) {
    test::index_tree(dir / label, dir / "kh2.db", label);
  }
  auto db = open_read_only(dir / "kh2.db");
  const auto sections = diff_sections(build_diff(db, "a", db, "b"), false);
  const auto& tracks = sections.at(2).table;
  REQUIRE(tracks.rows.size() == 2);
  CHECK(column(tracks, "animation") == std::vector<std::string>{"0", "0"});
  CHECK(column(tracks, "name") == std::vector<std::string>{"IDLE (battle, weapon)", "IDLE (field, no weapon)"});
  CHECK(column(tracks, "largest_value_change") == std::vector<std::string>{"0.185584", "0.25"});
}

TEST_CASE("diff says what changed: a flag byte, interpolation, tangents, slots and fallbacks (issue 39)",
          "[reports][diff]") {
  test::TempDir dir;
  // One KH2-like motion set per side, as rows: a curve whose flag byte alone changed (0x05 -> 0x45),
  // one key's interpolation and a tangent, a slot's name and a fallback.
  const auto side = [&](const char* name, int flags, int shape, double tangent, const char* motion_name, int resolved,
                        const char* channels = "Rz") {
    const auto path = dir / name;
    auto db = open_for_writing(path);
    db.exec(fmt::format(
        "INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, '{0}', '/{0}', 'now'); "
        "INSERT INTO files(id, dump_id, path, format, size, status, content_hash) VALUES "
        "(1, 1, 'P_EX100.mset', 'kh2_mset', 4, 'ok', '{0}'); "
        "INSERT INTO animations(id, file_id, slot, motion_id, track_count, key_count, content_hash, shape_hash) "
        "VALUES (1, 1, 0, 0, 1, 2, '{0}', 's'); "
        "INSERT INTO bone_tracks(id, animation_id, track_index, bone_id, flags, track_flags, channels, "
        "value_encoding, key_count, content_hash) VALUES (1, 1, 0, 3, {1}, 0, '{6}', 'kh2_fcurve', 2, '{0}'); "
        "INSERT INTO keyframe_rows(track_id, key_index, time, x) VALUES (1, 0, 0, 0.5), (1, 1, 10, 1); "
        "INSERT INTO key_spline_rows(track_id, key_index, shape, p1, p2) VALUES (1, 0, {2}, 0, {3}), (1, 1, 1, 0, 0); "
        "INSERT INTO mset_slots(file_id, slot, set_type, motion_id, state, motion_name, entry_name, entry_type, "
        "entry_type_name, is_dummy, size, data_offset, duplicate_flag) VALUES "
        "(1, 0, 1, 0, 0, '{4}', 'A000', 17, 'Anb', 0, 16, 0, 0); "
        "INSERT INTO mset_resolution(file_id, motion_id, state, resolved_slot) VALUES (1, 0, 1, {5})",
        name, flags, shape, tangent, motion_name, resolved, channels));
    return path;
  };
  auto before_path = side("before.db", 0x05, 1, 0.25, "IDLE", 0);
  auto after_path = side("after.db", 0x45, 3, 0.5, "IDLE_2", 2);
  auto before = open_read_only(before_path);
  auto after = open_read_only(after_path);
  const auto texts = [](const std::vector<FieldChange>& fields) {
    std::vector<std::string> lines;
    for (const auto& field : fields) lines.push_back(change_text(field));
    return lines;
  };
  CHECK(texts(track_field_changes(before, 1, after, 1)) ==
        std::vector<std::string>{"flags 0x05 -> 0x45", "interpolation at key 0 1 -> 3", "p2 at key 0 0.25 -> 0.5"});
  CHECK(texts(file_field_changes(before, 1, after, 1)) ==
        std::vector<std::string>{"slot(slot=0) motion_name IDLE -> IDLE_2",
                                 "fallback(motion_id=0, state=1) resolved_slot 0 -> 2"});
  CHECK(texts(animation_field_changes(before, 1, after, 1)).empty());
  CHECK(file_id_of(after, "after.db", "P_EX100.mset") == 1);

  // In the report: the track row, the file row and the JSON carry them.
  const auto report = build_diff(before, "before.db", after, "after.db");
  REQUIRE(report.animations.size() == 1);
  REQUIRE(report.animations[0].tracks.size() == 1);
  CHECK(report.animations[0].tracks[0].largest_value_change == 0.0);
  CHECK(texts(report.animations[0].tracks[0].fields).front() == "flags 0x05 -> 0x45");
  REQUIRE(report.files.size() == 1);
  CHECK(report.files[0].fields.size() == 2);
  const auto sections = diff_sections(report, false);
  const auto json = nlohmann::json::parse(render("diff", sections, OutputFormat::json));
  const auto text = render("diff", sections, OutputFormat::csv);
  CHECK(text.find("flags 0x05 -> 0x45") != std::string::npos);
  CHECK(text.find("fallback(motion_id=0, state=1) resolved_slot 0 -> 2") != std::string::npos);
  CHECK(json.dump().find(R"({"after":"0x45","before":"0x05","field":"flags"})") != std::string::npos);

  // Flags that change a track's channels (GNT: T -> TS): the bone's one track, changed, not one
  // removed and one added.
  auto t_path = side("t.db", 0x21, 1, 0.25, "IDLE", 0, "T");
  auto ts_path = side("ts.db", 0x23, 1, 0.25, "IDLE", 0, "TS");
  auto t_db = open_read_only(t_path);
  auto ts_db = open_read_only(ts_path);
  const auto channels = build_diff(t_db, "t.db", ts_db, "ts.db");
  REQUIRE(channels.animations.size() == 1);
  REQUIRE(channels.animations[0].tracks.size() == 1);
  const auto& track = channels.animations[0].tracks[0];
  CHECK(track.change == "changed");
  CHECK(texts(track.fields) == std::vector<std::string>{"channels T -> TS", "flags 0x21 -> 0x23"});
  CHECK(track.keys_before == 2);
  CHECK(track.keys_after == 2);
}
