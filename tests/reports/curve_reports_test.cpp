// The curves in the reports: `report docs` writes a page per character with every animation's
// curves (read again from the files, else from the stored keys) and an index linking each of them;
// `diff --format html` overlays each changed track before and after.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "cli/input_loading.h"
#include "db/database.h"
#include "indexer/pipeline.h"
#include "reports/diff_curves.h"
#include "reports/diff_report.h"
#include "reports/docs_report.h"
#include "reports/dump_files.h"
#include "reports/report_fixture.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::reports;

namespace {

using test::read_text;
using test::count_of;

// v1 and v2 of the report dump, indexed as "v1" and "v2" into one database.
struct Indexed {
  test::TempDir dir;
  std::filesystem::path db_path;
  Indexed() {
    test::write_report_dump(dir / "v1", 1);
    test::write_report_dump(dir / "v2", 2);
    db_path = dir / "both.db";
    for (const std::string label : {"v1", "v2"}) {
      test::index_tree(dir / label, db_path, label);
    }
  }
};

DocsSummary docs_with_curves(const Indexed& indexed, const std::string& out) {
  auto db = open_read_only(indexed.db_path);
  DocsOptions options;
  options.out = indexed.dir / out;
  options.load_curves = load_curves_quietly;
  return write_docs(db, options);
}

}  // namespace

TEST_CASE("report docs writes a curve page per character and an index linking every animation", "[reports][docs][curves]") {
  Indexed indexed;
  const auto summary = docs_with_curves(indexed, "docs");
  CHECK(summary.curves == "index.html");
  const auto out = indexed.dir / "docs";
  for (const char* page : {"v1/curves/hak.html", "v1/curves/kak.html", "v1/curves/loc.html", "v1/curves/sas.html",
                           "v2/curves/nar.html", "index.html"}) {
    INFO(page);
    CHECK(std::find(summary.files.begin(), summary.files.end(), std::filesystem::path(page)) != summary.files.end());
  }
  // sas holds Idle, Throw and 5B: a section each, read from the file, bones named from GNT4's reference.
  const std::string sas = read_text(out / "v1/curves/sas.html");
  CHECK(count_of(sas, "<h2 id=\"a") == 3);
  CHECK_THAT(sas, Catch::Contains("files/chr/sas/0000.mot: slot 144: 0x0090 (5B)") &&
                      Catch::Contains(">bone 3 (hip)</text>") && Catch::Contains("seconds; 60 frames/s") &&
                      !Catch::Contains("Drawn from the keys"));
  CHECK_THAT(sas, Catch::Contains("<a href=\"../../index.html\">"));
  // The index links each animation to its section, and the docs page and README link the index.
  const std::string index = read_text(out / "index.html");
  CHECK(count_of(index, "href=\"v1/curves/sas.html#a") == 3);
  CHECK_THAT(index, Catch::Contains(">sas (Sasuke)</a>") && Catch::Contains(">0000.mot slot 144: 0x0090 (5B)</a>") &&
                        Catch::Contains("<h2 id=\"dump-v2\">Dump v2</h2>") &&
                        Catch::Contains("4 files read again from where they were indexed; 0 drawn"));
  CHECK(count_of(index, "4 files read again") == 2);
  CHECK_THAT(read_text(out / "animdex-docs.html"), Catch::Contains("<a href=\"index.html\">index.html</a>"));
  CHECK_THAT(read_text(out / "README.md"), Catch::Contains("[index.html](index.html)"));
}

TEST_CASE("report docs draws a file that is gone or changed from its stored keys and says so", "[reports][docs][curves]") {
  Indexed indexed;
  std::filesystem::remove(indexed.dir / "v1/files/chr/sas/0000.mot");
  auto bytes = test::read_bytes(indexed.dir / "v1/files/chr/hak/0000.mot");
  bytes.push_back(std::byte{0});  // no longer the file that was indexed
  test::write_bytes(indexed.dir / "v1/files/chr/hak/0000.mot", bytes);
  docs_with_curves(indexed, "docs");
  const auto out = indexed.dir / "docs";
  const std::string sas = read_text(out / "v1/curves/sas.html");
  CHECK(count_of(sas, "<h2 id=\"a") == 3);
  CHECK_THAT(sas, Catch::Contains("Drawn from the keys the database stores, lines joining them: the file was not read "
                                  "again (it is no longer where it was indexed, or cannot be read there).") &&
                      Catch::Contains("time as stored") && Catch::Contains(">bone 3 (hip)</text>") &&
                      Catch::Contains("files/chr/sas/0000.mot: slot 144 (5B)"));
  CHECK(count_of(sas, "<polyline class=\"mark") > 0);
  CHECK_THAT(read_text(out / "v1/curves/hak.html"), Catch::Contains("(it has changed since it was indexed)"));
  CHECK_THAT(read_text(out / "v1/curves/kak.html"), !Catch::Contains("Drawn from the keys"));
  CHECK_THAT(read_text(out / "index.html"), Catch::Contains("2 files read again from where they were indexed; 2 drawn "
                                                            "from the keys the database stores"));
  // No absolute path on any page, as everywhere in the docs.
  const std::string root = std::filesystem::absolute(indexed.dir.path()).string();
  for (const char* page : {"v1/curves/sas.html", "v1/curves/hak.html", "index.html"}) CHECK(read_text(out / page).find(root) == std::string::npos);
}

TEST_CASE("a character whose curves pass the page budget continues on further pages", "[reports][docs][curves]") {
  Indexed indexed;
  auto db = open_read_only(indexed.db_path);
  std::vector<std::pair<std::filesystem::path, std::string>> written;
  CurvePagesOptions options;
  options.load = load_curves_quietly;
  options.page_budget = 1;  // every section on a page of its own
  const auto dump = write_dump_curves(db, "v1", "v1", options,
                                      [&](const std::filesystem::path& page, const std::string& html) {
                                        written.emplace_back(page, html);
                                      });
  std::vector<std::string> sas;
  for (const auto& [page, html] : written)
    if (page.generic_string().starts_with("v1/curves/sas")) sas.push_back(page.generic_string());
  CHECK(sas == std::vector<std::string>{"v1/curves/sas.html", "v1/curves/sas~2.html", "v1/curves/sas~3.html"});
  const auto owner = std::find_if(dump.owners.begin(), dump.owners.end(), [](const OwnerCurves& o) { return o.owner == "sas"; });
  REQUIRE(owner != dump.owners.end());
  REQUIRE(owner->animations.size() == 3);
  CHECK(owner->animations[2].href == "v1/curves/sas~3.html#a2");
  const auto second = std::find_if(written.begin(), written.end(), [](const auto& w) { return w.first == "v1/curves/sas~2.html"; });
  CHECK_THAT(second->second, Catch::Contains("<a href=\"sas.html\">previous page</a>") &&
                                 Catch::Contains("<a href=\"sas~3.html\">next page</a>"));
}

TEST_CASE("diff html overlays each changed track before and after", "[reports][diff][curves]") {
  Indexed indexed;
  auto db = open_read_only(indexed.db_path);
  const auto report = build_diff(db, "v1", db, "v2");
  auto sections = diff_sections(report, true);
  add_changed_track_charts(sections, db, db, report);
  const auto& tracks = sections.back();
  REQUIRE(tracks.anchor == "tracks");
  // sas 5B: bones 1, 2 and 3 changed; each a chart of its R components, before and after.
  CHECK(count_of(tracks.chart, "<svg class=\"chart curve\"") == 3);
  CHECK(count_of(tracks.chart, "data-lines=\"8\"") == 3);  // x y z w, before and after
  CHECK(count_of(tracks.chart, "<title>before</title>") == 12);
  CHECK(count_of(tracks.chart, "<title>after</title>") == 12);
  CHECK_THAT(tracks.chart, Catch::Contains("sas 144 \u00b7 bone 3 (hip) R (changed)") &&
                               Catch::Contains(">before</text>") && Catch::Contains(">after</text>") &&
                               Catch::Contains("<path class=\"keys c0\"") && Catch::Contains("<path class=\"keys c1\""));
  CHECK_THAT(tracks.note, Catch::Contains("lines join the keys each dump stores"));
  std::ostringstream page;
  write_sections(page, "Changes", sections, OutputFormat::html);
  CHECK_THAT(page.str(), Catch::Contains("<div class=\"curves\">"));
}

TEST_CASE("a dump's file is found under the root it was indexed from", "[reports][docs][curves]") {
  DumpRoots one{{"/data/gnt4"}, false};
  CHECK(file_on_disk(one, "files/chr/sas/0000.mot") == "/data/gnt4/files/chr/sas/0000.mot");
  // An image given alone: the path starts with the image's name, and members follow it.
  DumpRoots image{{"/discs/gnt4.iso"}, true};
  CHECK(file_on_disk(image, "gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot") ==
        "/discs/gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot");
  // Several roots: each path starts with its root's folder name, `~2` for the second of a name.
  DumpRoots several{{"/a/dump", "/b/dump", "/c/extra"}, false};
  CHECK(file_on_disk(several, "dump/x.mot") == "/a/dump/x.mot");
  CHECK(file_on_disk(several, "dump~2/x.mot") == "/b/dump/x.mot");
  CHECK(file_on_disk(several, "extra/y/z.mot") == "/c/extra/y/z.mot");
  CHECK(file_on_disk(several, "other/x.mot").empty());
  CHECK(file_on_disk({}, "x.mot").empty());
}
