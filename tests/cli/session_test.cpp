// A whole command-line session, in process and in one temp folder (issue 16): write two sample
// dumps, index them as v1 and v2, run every named query in every output format (a csv snapshot per
// query under tests/cli/session/, and every format's snapshot of one query), user queries, reports and diff, the usage errors a user meets, pose and
// info on the sample's files, and no number printed with float noise.
//
// Snapshots: each output is compared with tests/cli/session/NAME; with ANIMDEX_UPDATE_SNAPSHOTS=1 set
// the file is rewritten first (then read what changed before committing it). The temp folder's path
// is masked as $TMP and ISO times as $TIME. The folder is /tmp/animdex-session-XXXXXX (mkdtemp), a
// path of fixed length, so that table columns padded to it line up the same on every machine.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

using test::run;
using test::Captured;
using test::run_capturing;

// ---------------------------------------------------------------------------------------------
// The session's folder and its two dumps.

// /tmp/animdex-session-XXXXXX: unique, of fixed length, removed with everything in it at exit.
class SessionDir {
 public:
  SessionDir() {
    char name[] = "/tmp/animdex-session-XXXXXX";
    if (!::mkdtemp(name)) throw std::runtime_error("mkdtemp failed");
    path_ = name;
  }
  ~SessionDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  SessionDir(const SessionDir&) = delete;
  SessionDir& operator=(const SessionDir&) = delete;
  const fs::path& path() const { return path_; }
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

 private:
  fs::path path_;
};

// v2's changes, made with the project's own GNT reader and writer: in hak/0000.mot the 5B (0x90)
// gets bone 3's second key 1.5 higher in x and the 5A (0xA0) is dropped.
void change_hak(const fs::path& file) {
  auto parsed = gnt_mot::parse_mot(test::read_bytes(file));
  REQUIRE(parsed.ok());
  auto mot = std::move(parsed).value();
  auto& animations = mot.animations;
  const auto five_a = std::find_if(animations.begin(), animations.end(), [](const auto& a) { return a.animation_id == 0xA0; });
  REQUIRE(five_a != animations.end());
  animations.erase(five_a);
  const auto five_b = std::find_if(animations.begin(), animations.end(), [](const auto& a) { return a.animation_id == 0x90; });
  REQUIRE(five_b != animations.end());
  bool changed = false;
  for (auto& bone : five_b->bones) {
    if (bone.bone_id != 3) continue;
    const auto encoding = gnt_mot::encoding_from_flags(bone.flags1);
    REQUIRE(encoding.has_value());
    REQUIRE(bone.coordinate_words.size() > 1);
    auto& word = bone.coordinate_words[1][0];
    word = gnt_mot::encode_coordinate(gnt_mot::decode_coordinate(word, *encoding) + 1.5F, *encoding);
    changed = true;
  }
  REQUIRE(changed);
  REQUIRE_FALSE(gnt_mot::validate_for_writing(mot).has_value());
  test::write_bytes(file, gnt_mot::write_mot(mot));
}

// The session's start: two sample dumps and a database holding both.
//   v1 = `sample dump --characters 4 --kh2 --nsbca`: sas, hak, kak, loc, the KH2 and NSBCA samples
//        and the problem files (2 broken .mot, a LightWave motion, 2 files of no known format);
//   v2 = `sample dump2 --characters 3 --kh2 --nsbca --no-problem-files`, then hak/0000.mot changed
//        (change_hak) and files/chr/nar/0000.mot added (a copy of sas/0001.mot).
struct Session {
  SessionDir dir;
  std::string db = dir / "s.db";
  int sample_v1 = -1, sample_v2 = -1, index_v1 = -1, index_v2 = -1;

  Session() {
    sample_v1 = run({"sample", dir / "dump", "--characters", "4", "--kh2", "--nsbca"}).code;
    sample_v2 = run({"sample", dir / "dump2", "--characters", "3", "--kh2", "--nsbca", "--no-problem-files"}).code;
    change_hak(dir / "dump2/files/chr/hak/0000.mot");
    fs::create_directories(dir / "dump2/files/chr/nar");
    fs::copy_file(dir / "dump2/files/chr/sas/0001.mot", dir / "dump2/files/chr/nar/0000.mot");
    index_v1 = run({"index", dir / "dump", "--db", db, "--label", "v1", "--quiet"}).code;
    index_v2 = run({"index", dir / "dump2", "--db", db, "--label", "v2", "--quiet"}).code;
  }
};

// One session per process (ctest runs each TEST_CASE in its own).
Session& session() {
  static Session instance;
  return instance;
}

// ---------------------------------------------------------------------------------------------
// Snapshots.

const fs::path kSnapshots = fs::path(ANIMDEX_SOURCE_DIR) / "tests/cli/session";

// The temp folder as $TMP, ISO times as $TIME.
std::string masked(std::string text) {
  const std::string tmp = session().dir.path().string();
  for (auto at = text.find(tmp); at != std::string::npos; at = text.find(tmp, at)) text.replace(at, tmp.size(), "$TMP");
  static const std::regex iso_time(R"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?)");
  return std::regex_replace(text, iso_time, "$$TIME");
}

void check_snapshot(const std::string& name, const std::string& text) {
  const auto path = kSnapshots / name;
  if (const char* update = std::getenv("ANIMDEX_UPDATE_SNAPSHOTS"); update && std::string(update) == "1") {
    fs::create_directories(kSnapshots);
    std::ofstream(path, std::ios::binary) << text;
    WARN("updated " << path.string());
  }
  std::ifstream in(path, std::ios::binary);
  INFO("snapshot " << path.string() << " (ANIMDEX_UPDATE_SNAPSHOTS=1 writes it)");
  REQUIRE(in.good());
  std::stringstream expected;
  expected << in.rdbuf();
  CHECK(text == expected.str());
}

// ---------------------------------------------------------------------------------------------
// The named queries, from `animdex queries --format json`.

struct QueryCall {
  std::string name;
  std::vector<std::string> parameters;  // -p NAME VALUE ...
};

const std::vector<std::string> kFormats = {"table", "csv", "tsv", "json", "jsonl", "markdown"};

// The named query whose output is kept in every format: the renderers' snapshots.
const std::string kRendererQuery = "characters";

std::string extension(const std::string& format) {
  if (format == "table") return "txt";
  if (format == "markdown") return "md";
  return format;
}

// Every named query with its required parameters set to real values of the session.
std::vector<QueryCall> named_queries() {
  // Values of the sample: bone 118 (hair left 3, and the throw), hak, the KH2 Player set, the dumps.
  const std::map<std::string, std::string> values = {
      {"bone", "0x76"}, {"character", "hak"}, {"file", "P_SAMPLE"}, {"dump", "v1"}, {"from", "v1"}, {"to", "v2"}};
  const auto listing = run({"queries", "--format", "json"});
  REQUIRE(listing.code == kExitOk);
  const auto json = nlohmann::json::parse(listing.out);
  std::vector<QueryCall> calls;
  for (const auto& query : json) {
    QueryCall call{query.at("name").get<std::string>(), {}};
    for (const auto& parameter : query.at("parameters")) {
      const auto name = parameter.at("name").get<std::string>();
      // The KH2 queries on one motion set (its path contains P_SAMPLE), the rest with their defaults.
      const bool kh2_file = name == "file" && call.name.rfind("kh2-", 0) == 0;
      if (!parameter.at("required").get<bool>() && !kh2_file) continue;
      INFO(call.name << ": no session value for the required parameter " << name);
      REQUIRE(values.count(name) == 1);
      call.parameters.insert(call.parameters.end(), {"-p", name, values.at(name)});
    }
    calls.push_back(call);
  }
  return calls;
}

test::Run query(const QueryCall& call, const std::string& format, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"query", call.name, "--db", session().db, "--format", format};
  args.insert(args.end(), call.parameters.begin(), call.parameters.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return run(args);
}

// Splits on line ends (CRLF or LF), dropping the last empty piece.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// The fields of a CSV text (RFC 4180 quoting), every row.
std::vector<std::string> csv_fields(const std::string& text) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',' || c == '\n' || c == '\r') {
      if (!(c == '\n' && i > 0 && text[i - 1] == '\r')) fields.push_back(field);
      field.clear();
    } else {
      field += c;
    }
  }
  if (!text.empty() && text.back() != '\n') fields.push_back(field);  // a last line without its end
  return fields;
}

// Significant digits of a decimal number token ("0.155774" -> 6, "1.5e-05" -> 2, "120.0" -> 4).
int significant_digits(const std::string& token) {
  std::string mantissa = token.substr(0, token.find_first_of("eE"));
  std::string digits;
  for (char c : mantissa)
    if (c >= '0' && c <= '9') digits += c;
  digits.erase(0, digits.find_first_not_of('0'));
  return static_cast<int>(digits.size());
}

// Number fields written with a '.' or an exponent that have more than 9 significant digits. Content
// hashes (16 hex digits) and plain integers (sizes, IDs) are not looked at.
std::vector<std::string> noisy_numbers(const std::string& csv) {
  static const std::regex number(R"(-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)");
  static const std::regex hash("[0-9a-f]{16}");
  std::vector<std::string> noisy;
  for (const auto& field : csv_fields(csv)) {
    if (!std::regex_match(field, number) || std::regex_match(field, hash)) continue;
    if (field.find_first_of(".eE") == std::string::npos) continue;
    // A DS fixed-point value is printed exactly (4095/4096 = 0.999755859375): not noise.
    const double value = std::strtod(field.c_str(), nullptr);
    if (value * 4096.0 == std::round(value * 4096.0)) continue;
    if (significant_digits(field) > 9) noisy.push_back(field);
  }
  return noisy;
}

// The index of `column` in a CSV header line (-1 when absent).
int column_index(const std::string& header, const std::string& column) {
  const auto names = csv_fields(header);
  const auto at = std::find(names.begin(), names.end(), column);
  return at == names.end() ? -1 : static_cast<int>(at - names.begin());
}

}  // namespace

// =============================================================================================

TEST_CASE("session: sample, index v1 and v2, labels by root name, --replace and the label 007", "[cli][session]") {
  auto& s = session();
  CHECK(s.sample_v1 == kExitOk);
  CHECK(s.sample_v2 == kExitOk);
  CHECK(fs::exists(s.dir / "dump/nds/data/door.nsbca"));
  CHECK(fs::exists(s.dir / "dump/kh2/obj/P_SAMPLE.mset"));
  CHECK(s.index_v1 == kExitFileErrors);  // the two broken .mot files of the sample
  CHECK(s.index_v2 == kExitOk);

  // Labels, in a database of their own so that the session's holds only v1 and v2.
  const auto db = s.dir / "labels.db";
  CHECK(run({"index", s.dir / "dump", "--db", db, "--quiet"}).code == kExitFileErrors);
  auto dumps = lines_of(masked(run({"query", "dumps", "--db", db, "--format", "csv"}).out));
  REQUIRE(dumps.size() == 2);
  CHECK(dumps[0] == "label,root,indexed_at,file_count,error_count,tool_version");
  CHECK_THAT(dumps[1], Catch::StartsWith("dump,$TMP/dump,$TIME,19,2,"));  // labelled by the root's name

  // Another tree under an existing label is refused without --replace, and says so.
  auto refused = run_capturing({"index", s.dir / "dump2", "--db", db, "--label", "dump", "--quiet"});
  CHECK(refused.code == kExitUsage);
  CHECK_THAT(refused.err, Catch::Contains("--replace") && Catch::Contains("'dump'"));
  dumps = lines_of(masked(run({"query", "dumps", "--db", db, "--format", "csv"}).out));
  REQUIRE(dumps.size() == 2);
  CHECK_THAT(dumps[1], Catch::StartsWith("dump,$TMP/dump,"));  // untouched
  CHECK(run({"index", s.dir / "dump2", "--db", db, "--label", "dump", "--replace", "--quiet"}).code == kExitOk);
  dumps = lines_of(masked(run({"query", "dumps", "--db", db, "--format", "csv"}).out));
  REQUIRE(dumps.size() == 2);
  CHECK_THAT(dumps[1], Catch::StartsWith("dump,$TMP/dump2,$TIME,13,0,"));
  // Re-indexing the same tree under its label needs no --replace.
  CHECK(run({"index", s.dir / "dump2", "--db", db, "--label", "dump", "--quiet"}).code == kExitOk);

  // --label 007 stays the text 007: in `query dumps`, and as -p dump 007.
  CHECK(run({"index", s.dir / "dump2", "--db", db, "--label", "007", "--allow-overlap", "--quiet"}).code == kExitOk);
  dumps = lines_of(masked(run({"query", "dumps", "--db", db, "--format", "csv"}).out));
  REQUIRE(dumps.size() == 3);
  CHECK_THAT(dumps[1], Catch::StartsWith("007,$TMP/dump2,"));
  const auto json = nlohmann::json::parse(run({"query", "dumps", "--db", db, "--format", "json"}).out);
  CHECK(json[0]["label"] == "007");
  CHECK(run({"sql", "SELECT typeof(label) AS t FROM dumps WHERE label = '007'", "--db", db, "--format", "csv"}).out ==
        "t\r\ntext\r\n");
  auto characters = run({"query", "characters", "--db", db, "-p", "dump", "007", "--format", "csv"});
  CHECK(characters.code == kExitOk);
  CHECK_THAT(characters.out, Catch::Contains("gnt4,nar,Naruto,1,1,0"));
}

TEST_CASE("session: every named query matches its csv snapshot, every output format on one query", "[cli][session]") {
  const auto calls = named_queries();
  CHECK(calls.size() >= 20);
  std::set<std::string> written;
  for (const auto& call : calls) {
    for (const auto& format : kFormats) {
      const auto name = call.name + "." + extension(format);
      INFO("animdex query " << call.name << " --format " << format);
      const auto result = query(call, format);
      CHECK(result.code == kExitOk);
      std::string text = masked(result.out);
      if (call.name == "dumps") {  // the version that indexed, not pinned here
        for (auto at = text.find(ANIMDEX_VERSION); at != std::string::npos; at = text.find(ANIMDEX_VERSION, at))
          text.replace(at, std::string(ANIMDEX_VERSION).size(), "$VERSION");
      }
      // One snapshot per named query (csv: every value as it is), and every renderer on one query
      // (characters: text with spaces, NULLs, numbers), not every query in every format.
      if (format == "csv" || call.name == kRendererQuery) {
        check_snapshot(name, text);
        written.insert(name);
      }

      if (format == "json") {
        const auto json = nlohmann::json::parse(result.out);
        CHECK(json.is_array());
      }
      if (format == "jsonl") {  // one object per line, each valid JSON
        for (const auto& line : lines_of(result.out)) {
          INFO(line);
          const auto object = nlohmann::json::parse(line);
          CHECK(object.is_object());
        }
        CHECK((result.out.empty() || result.out.back() == '\n'));
      }
      if (format == "csv" || format == "tsv") {  // --no-header drops the header line, only it
        const auto bare = query(call, format, {"--no-header"});
        CHECK(bare.code == kExitOk);
        const auto with_header = lines_of(result.out);
        REQUIRE(!with_header.empty());
        CHECK(lines_of(bare.out) == std::vector<std::string>(with_header.begin() + 1, with_header.end()));
      }
    }
  }
  // Rows of json and jsonl are the same objects.
  for (const auto& call : calls) {
    const auto json = nlohmann::json::parse(query(call, "json").out);
    const auto lines = lines_of(query(call, "jsonl").out);
    INFO(call.name);
    REQUIRE(json.size() == lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) CHECK(nlohmann::json::parse(lines[i]) == json[i]);
  }
  // No snapshot left behind by a query that is gone (the reports' snapshots are checked below).
  for (const auto& entry : fs::directory_iterator(kSnapshots)) {
    const auto file = entry.path().filename().string();
    if (file.rfind("report-", 0) == 0) continue;
    INFO("tests/cli/session/" << file << " belongs to no named query's csv nor the renderers' query");
    CHECK(written.count(file) == 1);
  }
}

TEST_CASE("session: the sample's answers -- bone users per game, hak's animations, the dumps", "[cli][session]") {
  auto& s = session();
  // Bone 118: one row per game and character, never two games mixed in one row.
  auto users = run({"query", "bone-users", "--db", s.db, "-p", "bone", "0x76", "-p", "dump", "v1", "--format", "csv"});
  REQUIRE(users.code == kExitOk);
  auto rows = lines_of(users.out);
  REQUIRE(!rows.empty());
  CHECK(rows[0] == "game,character,bone_name,animations");
  std::set<std::string> games;
  for (std::size_t i = 1; i < rows.size(); ++i) games.insert(csv_fields(rows[i]).at(0));
  for (const auto& game : games) CHECK((game == "gnt4" || game == "kh2" || game == "nsbca" || game == "lw_mot"));
  CHECK_THAT(users.out, Catch::Contains("gnt4,hak,hair left 3,"));
  // The same bone asked as 118 and 0x76.
  CHECK(run({"query", "bone-users", "--db", s.db, "-p", "bone", "118", "-p", "dump", "v1", "--format", "csv"}).out ==
        users.out);

  // purposes: a game column, and the GNT and KH2 IDs apart.
  auto purposes = run({"query", "purposes", "--db", s.db, "--format", "csv"});
  REQUIRE(purposes.code == kExitOk);
  rows = lines_of(purposes.out);
  REQUIRE(rows.size() > 1);
  CHECK(column_index(rows[0], "game") == 0);
  CHECK_THAT(purposes.out, Catch::Contains("\r\ngnt4,") && Catch::Contains("\r\nkh2,"));

  // hak's animations in v1 and v2: v2 lost the 5A.
  auto v1 = run({"query", "animations", "--db", s.db, "-p", "character", "hak", "-p", "dump", "v1", "--format", "csv"});
  auto v2 = run({"query", "animations", "--db", s.db, "-p", "character", "hak", "-p", "dump", "v2", "--format", "csv"});
  CHECK_THAT(v1.out, Catch::Contains(",160,0x00A0,5A,"));
  CHECK_THAT(v2.out, !Catch::Contains(",160,0x00A0,5A,"));
  CHECK(lines_of(v1.out).size() == lines_of(v2.out).size() + 1);

  // The dumps: v1 with its 2 errors, v2 with the added nar file.
  const auto dumps = lines_of(masked(run({"query", "dumps", "--db", s.db, "--format", "csv"}).out));
  REQUIRE(dumps.size() == 3);
  CHECK_THAT(dumps[1], Catch::StartsWith("v1,$TMP/dump,$TIME,19,2,"));
  CHECK_THAT(dumps[2], Catch::StartsWith("v2,$TMP/dump2,$TIME,13,0,"));
}

TEST_CASE("session: queries NAME, a user query file, a user query folder, a user query named like a built-in",
          "[cli][session]") {
  auto& s = session();
  auto shown = run({"queries", "bone-users"});
  CHECK(shown.code == kExitOk);
  CHECK_THAT(shown.out, Catch::StartsWith("bone-users: ") && Catch::Contains("\nSQL:\n") &&
                            Catch::Contains("SELECT ") && Catch::Contains("\nexample:\n") &&
                            Catch::Contains("animdex query bone-users --db animdex.db -p bone 0x76"));
  CHECK(run({"queries", "no-such-query"}).code == kExitUsage);

  const std::string sql =
      "-- description: Animations per character of one dump\n"
      "-- param: dump text  Dump label\n"
      "-- example: -p dump v1\n"
      "SELECT character, COUNT(*) AS animations FROM animation_overview\n"
      "WHERE dump = :dump AND character IS NOT NULL GROUP BY character ORDER BY character;\n";
  const std::string expected = "character,animations\r\nM_SAMPLE,3\r\nP_SAMPLE,11\r\nhak,11\r\nkak,10\r\nloc,11\r\n"
                               "sas,11\r\n";
  fs::create_directories(s.dir / "my");
  test::write_text(s.dir / "my/per-character.sql", sql);
  auto file = run({"query", s.dir / "my/per-character.sql", "--db", s.db, "-p", "dump", "v1", "--format", "csv"});
  CHECK(file.code == kExitOk);
  CHECK(file.out == expected);
  auto folder = run({"query", "per-character", "--queries", s.dir / "my", "--db", s.db, "-p", "dump", "v1", "--format", "csv"});
  CHECK(folder.code == kExitOk);
  CHECK(folder.out == expected);
  // Its parameters are checked like a built-in's.
  CHECK(run({"query", "per-character", "--queries", s.dir / "my", "--db", s.db}).code == kExitUsage);
  auto described = run({"queries", "per-character", "--queries", s.dir / "my"});
  CHECK(described.code == kExitOk);
  CHECK_THAT(described.out, Catch::Contains("Animations per character of one dump") &&
                                Catch::Contains("animdex query per-character --db animdex.db -p dump v1"));

  // A user query may not take a built-in's name.
  fs::create_directories(s.dir / "clash");
  test::write_text(s.dir / "clash/bone-users.sql", sql);
  auto clash = run_capturing({"query", "bone-users", "--queries", s.dir / "clash", "--db", s.db, "-p", "bone", "1"});
  CHECK(clash.code == kExitUsage);
  CHECK_THAT(clash.err, Catch::Contains("'bone-users' is taken"));
  CHECK(clash.out.empty());
}

TEST_CASE("session: report reuse, report docs and diff v1 -> v2", "[cli][session]") {
  auto& s = session();
  auto reuse = run({"report", "reuse", "--db", s.db, "--dump", "v1", "--format", "markdown"});
  CHECK(reuse.code == kExitOk);
  check_snapshot("report-reuse-v1.md", masked(reuse.out));
  auto reuse_json = run({"report", "reuse", "--db", s.db, "--dump", "v1", "--format", "json"});
  CHECK(reuse_json.code == kExitOk);
  const auto reuse_parsed = nlohmann::json::parse(reuse_json.out);
  CHECK(reuse_parsed.is_object());
  CHECK(run({"report", "reuse", "--db", s.db, "--dump", "v1", "--format", "table"}).code == kExitOk);
  CHECK(run({"report", "reuse", "--db", s.db, "--dump", "v1", "--format", "csv"}).code == kExitOk);

  const auto docs = s.dir / "docs";
  auto written = run({"report", "docs", "--db", s.db, "--out", docs});
  CHECK(written.code == kExitOk);
  for (const char* file : {"README.md", "animdex-docs.html", "v1/characters.md", "v1/bones.md", "v2/files.md"}) {
    INFO(file);
    CHECK(fs::exists(fs::path(docs) / file));
  }
  // The pages name files by their path in the dump, never the folder the dump was indexed from.
  std::ifstream files_page(fs::path(docs) / "v1/files.md", std::ios::binary);
  std::stringstream files_text;
  files_text << files_page.rdbuf();
  CHECK_THAT(files_text.str(), Catch::Contains("files/chr/hak/0000.mot") && !Catch::Contains(s.dir.path().string()));

  for (const char* format : {"table", "markdown", "json", "csv"}) {
    INFO(format);
    CHECK(run({"diff", "--db", s.db, "--from", "v1", "--to", "v2", "--format", format}).code == kExitOk);
  }
  auto diff = run({"diff", "--db", s.db, "--from", "v1", "--to", "v2", "--format", "markdown"});
  check_snapshot("report-diff-v1-v2.md", masked(diff.out));
  // What change_hak did, and the added nar file.
  CHECK_THAT(diff.out, Catch::Contains("| files/chr/hak/0000.mot | gnt_mot | changed |") &&
                           Catch::Contains("| files/chr/nar/0000.mot | gnt_mot | added |") &&
                           Catch::Contains("| files/chr/loc/0000.mot | gnt_mot | removed |"));
  CHECK_THAT(diff.out, Catch::Contains("bone 3 (hip) R"));
  const auto diff_json = nlohmann::json::parse(run({"diff", "--db", s.db, "--from", "v1", "--to", "v2", "--format", "json"}).out);
  CHECK(diff_json.is_object());
}

TEST_CASE("session: usage errors exit 2 with a message on stderr, an empty answer is exit 0", "[cli][session]") {
  auto& s = session();
  const auto expect_usage = [](const Captured& result, const std::string& says) {
    CHECK(result.code == kExitUsage);
    CHECK_THAT(result.err, Catch::StartsWith("animdex: error: ") && Catch::Contains(says));
    CHECK(result.out.empty());
  };

  // A value naming nothing in the database says what there is.
  expect_usage(run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "1", "-p", "dump", "nosuch"}),
               "no dump labelled 'nosuch' in this database (-p dump); there are: v1, v2");
  expect_usage(run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "1", "-p", "game", "gnt"}), "gnt4");
  const auto character = run_capturing({"query", "animations", "--db", s.db, "-p", "character", "zzz"});
  expect_usage(character, "no character 'zzz'");
  CHECK_THAT(character.err, Catch::Contains("hak") && Catch::Contains("P_SAMPLE"));
  // A character in another case is the one that exists, with a note.
  const auto upper = run_capturing({"query", "animations", "--db", s.db, "-p", "character", "HAK", "--format", "csv"});
  CHECK(upper.code == kExitOk);
  CHECK_THAT(upper.err, Catch::Contains("'HAK' taken as 'hak'"));
  CHECK(upper.out == run({"query", "animations", "--db", s.db, "-p", "character", "hak", "--format", "csv"}).out);
  CHECK_THAT(upper.out, Catch::Contains("files/chr/hak/0000.mot"));

  expect_usage(run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "1", "-p", "nosuch", "1"}),
               "no parameter 'nosuch'");
  expect_usage(run_capturing({"sql", "select :x", "--db", s.db}), "-p x");
  expect_usage(run_capturing({"sql", "select 1", "--db", s.db, "-p", "y", "2"}), "-p y");

  // Two statements: one JSON result cannot hold both; a table prints both.
  expect_usage(run_capturing({"sql", "select 1 as a; select 2 as b", "--db", s.db, "--format", "json"}),
               "2 statements");
  const auto both = run({"sql", "select 1 as a; select 2 as b", "--db", s.db});
  CHECK(both.code == kExitOk);
  CHECK(both.out == "a\n-\n1\n(1 row)\n\nb\n-\n2\n(1 row)\n");

  expect_usage(run_capturing({"indx", s.dir / "dump", "--db", s.db}), "did you mean `index`?");

  // Reports and diff check their labels as queries do: a usage error naming the dumps that exist.
  const auto reuse = run_capturing({"report", "reuse", "--db", s.db, "--dump", "nosuch"});
  CHECK(reuse.code == kExitUsage);
  CHECK_THAT(reuse.err, Catch::Contains("no dump labelled 'nosuch' (--dump); the database's dumps: v1, v2"));
  CHECK(reuse.out.empty());
  const auto docs = run_capturing({"report", "docs", "--db", s.db, "--dump", "nosuch", "--out", s.dir / "nodocs"});
  CHECK(docs.code == kExitUsage);
  CHECK_FALSE(std::filesystem::exists(s.dir / "nodocs"));
  const auto diff = run_capturing({"diff", "--db", s.db, "--from", "nosuch", "--to", "v1"});
  CHECK(diff.code == kExitUsage);
  CHECK_THAT(diff.err, Catch::Contains("no dump labelled 'nosuch' (--from); the database's dumps: v1, v2"));
  // The parameters' case rule for the labels reports and diff take: another case is taken with a warning.
  const auto label_case = run_capturing({"diff", "--db", s.db, "--from", "V1", "--to", "v2", "--format", "csv"});
  CHECK(label_case.code == kExitOk);
  CHECK_THAT(label_case.err, Catch::Contains("--from 'V1' taken as 'v1'"));
  CHECK(label_case.out == run({"diff", "--db", s.db, "--from", "v1", "--to", "v2", "--format", "csv"}).out);
  const auto reuse_upper = run_capturing({"report", "reuse", "--db", s.db, "--dump", "V2", "--format", "csv"});
  CHECK(reuse_upper.code == kExitOk);
  CHECK_THAT(reuse_upper.err, Catch::Contains("--dump 'V2' taken as 'v2'"));

  // An empty but valid answer: exit 0, the header, no rows.
  const auto none = run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "999", "--format", "csv"});
  CHECK(none.code == kExitOk);
  CHECK(none.out == "game,character,bone_name,animations\r\n");
  const auto none_table = run({"query", "bone-users", "--db", s.db, "-p", "bone", "999"});
  CHECK(none_table.code == kExitOk);
  CHECK_THAT(none_table.out, Catch::StartsWith("game  character  bone_name  animations\n") &&
                                 Catch::EndsWith("(0 rows)\n"));
  CHECK(run({"query", "bone-users", "--db", s.db, "-p", "bone", "999", "--format", "json"}).out == "[]\n");
  CHECK(run({"query", "bone-users", "--db", s.db, "-p", "bone", "999", "--format", "jsonl"}).out.empty());
}

TEST_CASE("session: pose and info on the sample's NSBCA and GNT files", "[cli][session]") {
  auto& s = session();
  const auto door = s.dir / "dump/nds/data/door.nsbca";
  auto pose = run({"pose", door, "--anim", "open", "--frame", "0", "--format", "csv"});
  CHECK(pose.code == kExitOk);
  const auto rows = lines_of(pose.out);
  REQUIRE(rows.size() > 1);
  CHECK(rows[0] == "node,node_id,name,T.x,T.y,T.z,R.m00,R.m01,R.m02,R.m10,R.m11,R.m12,R.m20,R.m21,R.m22,S.x,S.y,S.z");
  for (std::size_t i = 1; i < rows.size(); ++i) CHECK(csv_fields(rows[i]).size() == 18);
  // Node names from door.nsbmd beside it, which the animation links to (issue 39 item 6).
  CHECK(csv_fields(rows[1])[2] == "door_root");
  // The same names in export --bake's bone_name and on plot's curves.
  const auto bake = run({"export", door, "--anim", "open", "--bake", "30"});
  CHECK(bake.code == kExitOk);
  const auto baked = lines_of(bake.out);
  REQUIRE(baked.size() > 1);
  CHECK(baked[0] == "slot,animation,bone,bone_name,channel,time,value");
  CHECK(csv_fields(baked[1])[1] == "open");
  std::set<std::string> baked_nodes;  // "bone bone_name": only the hinge (node 1) moves
  for (std::size_t i = 1; i < baked.size(); ++i)
    baked_nodes.insert(csv_fields(baked[i])[2] + " " + csv_fields(baked[i])[3]);
  CHECK(baked_nodes == std::set<std::string>{"1 hinge"});
  const auto page = s.dir / "door_plot.html";
  CHECK(run({"plot", door, "--out", page}).code == kExitOk);
  CHECK_THAT(test::read_text(page), Catch::Contains("node 1 (hinge)"));
  // A name in another case is no name, but the error names the nearest.
  const auto other_case = run_capturing({"pose", door, "--anim", "Open", "--frame", "0"});
  CHECK(other_case.code == kExitUsage);
  CHECK_THAT(other_case.err, Catch::Contains("no animation named 'Open'; nearest: open; it has: close, open") ||
                                 Catch::Contains("no animation named 'Open'; nearest: open; it has: open, close"));
  // Alone, without its model, the nodes have no names, and the note says why (once).
  const auto alone = s.dir / "door_alone/door.nsbca";
  fs::create_directories(fs::path(alone).parent_path());
  fs::copy_file(door, alone, fs::copy_options::overwrite_existing);
  const auto unnamed = run_capturing({"pose", alone, "--anim", "open", "--frame", "0", "--format", "csv"});
  CHECK(unnamed.code == kExitOk);
  CHECK(csv_fields(lines_of(unnamed.out).at(1))[2].empty());
  CHECK_THAT(unnamed.err, Catch::Contains("no model beside the file links to this animation, so its nodes have no names"));
  CHECK(unnamed.err.find("no model beside") == unnamed.err.rfind("no model beside"));
  CHECK(run_capturing({"pose", door, "--anim", "open", "--frame", "0"}).err.find("no model beside") ==
        std::string::npos);
  auto pose_json = run({"pose", door, "--anim", "close", "--frame", "0", "--format", "json"});
  CHECK(pose_json.code == kExitOk);
  CHECK(nlohmann::json::parse(pose_json.out)["animation"] == "close");

  // info: numbers as JSON numbers, the path as given (not made absolute or normalised).
  const auto given = s.dir / "dump/files/../files/chr/hak/0001.mot";
  auto info = run({"info", given, "--format", "json"});
  CHECK(info.code == kExitOk);
  const auto json = nlohmann::json::parse(info.out);
  CHECK(json["path"] == given);
  CHECK(json["format"] == "gnt_mot");
  CHECK(json["size"].is_number_integer());
  CHECK(json["properties"]["slot_count"].is_number_integer());
  CHECK(json["properties"]["slot_count"] == 1);
  CHECK(json["animations"][0]["play_speed"].is_number_float());
  auto nsbca = nlohmann::json::parse(run({"info", door, "--format", "json"}).out);
  CHECK(nsbca["path"] == door);
  CHECK(nsbca["properties"]["animation_count"] == 2);
}

TEST_CASE("session: no number in the session's CSV outputs has more than 9 significant digits", "[cli][session]") {
  auto& s = session();
  std::vector<std::pair<std::string, std::string>> outputs;  // what ran, its CSV
  for (const auto& call : named_queries()) outputs.emplace_back("query " + call.name, query(call, "csv").out);
  outputs.emplace_back("query animations (all)",
                       run({"query", "animations", "--db", s.db, "-p", "character", "sas", "--format", "csv"}).out);
  outputs.emplace_back("query nsbca-nodes", run({"query", "nsbca-nodes", "--db", s.db, "--format", "csv"}).out);
  outputs.emplace_back("query kh2-motions (all)",
                       run({"query", "kh2-motions", "--db", s.db, "-p", "dummies", "1", "--format", "csv"}).out);
  outputs.emplace_back("sql tracks", run({"sql", "SELECT * FROM bone_tracks LIMIT 2000", "--db", s.db, "--format", "csv"}).out);
  outputs.emplace_back("sql animations", run({"sql", "SELECT * FROM animations", "--db", s.db, "--format", "csv"}).out);
  outputs.emplace_back("report reuse", run({"report", "reuse", "--db", s.db, "--format", "csv"}).out);
  outputs.emplace_back("diff", run({"diff", "--db", s.db, "--from", "v1", "--to", "v2", "--format", "csv"}).out);
  for (const char* anim : {"open", "close"})
    for (const char* frame : {"0", "1", "3"})
      outputs.emplace_back(std::string("pose door ") + anim + " " + frame,
                           run({"pose", s.dir / "dump/nds/data/door.nsbca", "--anim", anim, "--frame", frame, "--format",
                                "csv"})
                               .out);
  outputs.emplace_back("pose camera", run({"pose", s.dir / "dump/files/lw/camera.mot", "--frame", "7", "--format", "csv"}).out);
  std::size_t numbers_seen = 0;
  for (const auto& [what, csv] : outputs) {
    INFO(what);
    CHECK(!csv.empty());
    CHECK(noisy_numbers(csv) == std::vector<std::string>{});
    for (const auto& field : csv_fields(csv)) numbers_seen += field.find('.') != std::string::npos;
  }
  CHECK(numbers_seen > 100);  // the check looked at real numbers
  // The checker itself.
  CHECK(noisy_numbers("a,b\r\n0.15577399730682373,1\r\n") == std::vector<std::string>{"0.15577399730682373"});
  CHECK(noisy_numbers("x\r\n0.155774\r\n12345678901\r\n1035643d27a9907b\r\n1.5e-05\r\n") == std::vector<std::string>{});
}
