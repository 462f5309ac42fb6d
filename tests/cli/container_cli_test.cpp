// `ls`, `extract` and member paths from the command line: exit codes, refusals, what is printed.
#include <catch2/catch.hpp>
#include <sstream>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_writer.h"
#include "containers/fpk/fpk_writer.h"
#include "containers/lz/lz.h"
#include "containers/narc/narc_writer.h"
#include "containers/self_nesting_image.h"
#include "db/database.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

using test::run;

// A NARC whose FNT names two files `dup` (the writer refuses that: the second name is patched) and
// a third literally `dup#2`, each member 16 bytes of its own value.
std::vector<std::byte> narc_with_repeated_names() {
  auto narc = narc::build_narc({{"dup", std::vector<std::byte>(16, std::byte{1})},
                                {"dux", std::vector<std::byte>(16, std::byte{2})},
                                {"dup#2", std::vector<std::byte>(16, std::byte{3})}},
                               true);
  const std::string text(reinterpret_cast<const char*>(narc.data()), narc.size());
  narc[text.find("dux") + 2] = std::byte{'p'};
  return narc;
}

struct Images {
  test::TempDir dir;
  fs::path images = dir / "images";
  Images() {
    test::write_clean_sample(dir / "dump", 2, true);
    write_sample_images(dir / "dump", images);
  }
  std::string image(const char* name) const { return (images / name).string(); }
};

}  // namespace

TEST_CASE("ls lists members, info describes a container, extract writes a member", "[cli][containers]") {
  Images sample;
  const auto listed = run({"ls", sample.image("nitro.nds"), "--recursive", "--format", "csv"});
  CHECK(listed.code == kExitOk);
  CHECK(listed.out.find("data/door.narc/2,nsbca,456,296,832,lz11,2,\r\n") != std::string::npos);
  const auto info = run({"info", sample.image("gnt4.iso")});
  CHECK(info.code == kExitOk);
  CHECK(info.out.find("gcm") != std::string::npos);
  const auto member = run({"info", sample.image("kh2.iso") + "/KH2.IDX/obj/P_EX100.mset"});
  CHECK(member.code == kExitOk);
  CHECK(member.out.find("kh2_mset") != std::string::npos);
  const auto out = (sample.dir / "door.bin").string();
  CHECK(run({"extract", sample.image("nitro.nds"), "data/door.narc/2", "--out", out}).code == kExitOk);
  CHECK(test::read_bytes(out) == test::read_bytes(sample.dir / "dump/nds/data/door.nsbca"));
}

TEST_CASE("extract refuses a folder and the image itself, and writes a device in place", "[cli][containers]") {
  Images sample;
  const auto image = sample.image("gnt4.iso");
  const auto before = test::read_bytes(image);
  CHECK(run({"extract", image, "fpack/chr/sas1000.fpk/chr/sas/0001.mot", "--out", sample.dir.path().string()}).code == kExitUsage);
  CHECK(run({"extract", image, "fpack/chr/sas1000.fpk/chr/sas/0001.mot", "--out", image}).code == kExitUsage);
  CHECK(test::read_bytes(image) == before);
  CHECK(run({"extract", image, "", "--out", (sample.dir / "x").string()}).code == kExitUsage);
  CHECK(run({"extract", image, "no/such.mot", "--out", (sample.dir / "x").string()}).code == kExitUsage);
  // /dev/full stays a device: written in place, and the full disk is an error.
  const auto full = run({"extract", image, "fpack/chr/sas1000.fpk/chr/sas/0001.mot", "--out", "/dev/full"});
  INFO(full.out);
  CHECK(full.code == kExitFatal);
  struct stat info {};
  REQUIRE(::stat("/dev/full", &info) == 0);
  CHECK(S_ISCHR(info.st_mode));
  CHECK(fs::directory_iterator(sample.dir.path()) != fs::directory_iterator());
  for (const auto& entry : fs::directory_iterator(sample.dir.path()))
    CHECK(entry.path().string().find("partial") == std::string::npos);
}

TEST_CASE("ls: a file that is not a container is a usage error, a broken container a file error", "[cli][containers]") {
  Images sample;
  CHECK(run({"ls", (sample.dir / "dump/nds/data/door.nsbca").string()}).code == kExitUsage);
  const auto cut = sample.dir / "cut.ciso";
  auto bytes = test::read_bytes(sample.image("gnt4.ciso"));
  bytes.resize(0x4000);  // inside the CISO header
  test::write_bytes(cut, bytes);
  CHECK(run({"ls", cut.string()}).code == kExitFileErrors);
}

TEST_CASE("one name, one member: every stored member path opens that member in every verb", "[cli][containers]") {
  // Issue 35: the index stored the second `dup` as d.narc/dup#2, but extract and info of dup#2
  // opened the member literally named dup#2; the second `dup` could not be reached.
  test::TempDir dir;
  fs::create_directories(dir / "tree");
  const auto narc = narc_with_repeated_names();
  test::write_bytes(dir / "tree/d.narc", narc);
  const auto db_path = (dir / "d.db").string();
  REQUIRE(run({"index", (dir / "tree").string(), "--db", db_path, "--quiet"}).code == kExitOk);
  std::vector<std::string> rows;
  {
    auto db = open_read_only(db_path);
    rows = test::sql_lines(db, "SELECT path, member_offset, stored_size FROM files WHERE parent_id IS NOT NULL ORDER BY member_offset");
  }
  REQUIRE(rows.size() == 3);
  // The literal `dup#2` keeps its name; the second `dup` takes the first free suffix.
  CHECK(rows[0].substr(0, rows[0].find('|')) == "d.narc/dup");
  CHECK(rows[1].substr(0, rows[1].find('|')) == "d.narc/dup#3");
  CHECK(rows[2].substr(0, rows[2].find('|')) == "d.narc/dup#2");
  const auto listed = run({"ls", (dir / "tree/d.narc").string(), "--format", "csv", "--no-header"});
  for (const auto& row : rows) {
    const auto path = row.substr(0, row.find('|'));
    const auto member = path.substr(std::string("d.narc/").size());
    const auto offset = std::stoull(row.substr(row.find('|') + 1));
    const auto size = std::stoull(row.substr(row.rfind('|') + 1));
    CAPTURE(path);
    CHECK(listed.out.find(member + ",") != std::string::npos);
    const auto out = (dir / "member.bin").string();
    REQUIRE(run({"extract", (dir / "tree/d.narc").string(), member, "--out", out}).code == kExitOk);
    CHECK(test::read_bytes(out) == std::vector<std::byte>(narc.begin() + static_cast<std::ptrdiff_t>(offset),
                                                          narc.begin() + static_cast<std::ptrdiff_t>(offset + size)));
    CHECK(run({"info", (dir / "tree" / path).string()}).code != kExitUsage);
  }
  CHECK(run({"extract", (dir / "tree/d.narc").string(), "dup#2#2", "--out", (dir / "x").string()}).code == kExitUsage);
}

using test::self_nesting_image;  // tests/containers/self_nesting_image.h, shared with the index test

TEST_CASE("ls --recursive has a total budget: a self-nesting image stops with an error, not millions of rows",
          "[cli][containers][caps]") {
  // Issue 35: a 12 KB image holding itself 6 times listed 2,015,538 rows in 810 MB, and under a
  // memory limit stopped with "std::bad_alloc" and exit 0.
  test::TempDir dir;
  const auto image = (dir / "nest.iso").string();
  test::write_bytes(image, self_nesting_image(6));
  const auto table = test::run_capturing({"ls", image, "--recursive"});
  CHECK(table.code == kExitFileErrors);
  // The budget `index` gives this 9.6 KB file (ContainerBudget): 10,000 members and one per 8 bytes.
  CHECK_THAT(table.err, Catch::Contains("the listing stopped: at most 11200 members in all the containers of one file "
                                        "(10000 and one per 8 bytes of its 9600) (as `index` lists them)"));
  CHECK(test::count_of(table.out, "\n") < 11'210);
  // A format that streams is not held: it lists on, under the member budget index has.
  const auto small = (dir / "small.iso").string();
  test::write_bytes(small, self_nesting_image(2));
  const auto csv = test::run({"ls", small, "--recursive", "--format", "csv", "--no-header"});
  CHECK(csv.code == kExitOk);
  CHECK(test::count_of(csv.out, "\n") == 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256);
}

TEST_CASE("what index reads, the verbs read: whole-file LZ NSBCA and NARC", "[cli][containers]") {
  // Issue 35: index read them (and the NARC's members), but info, pose, ls and extract said
  // "no known format" and the stored member paths could not be opened.
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, true);
  const auto nsbca = test::read_bytes(dir / "dump/nds/data/door.nsbca");
  fs::create_directories(dir / "tree");
  test::write_bytes(dir / "tree/door.lz", lz::lz11_compress(nsbca));
  test::write_bytes(dir / "tree/pack.lz", lz::lz10_compress(narc::build_narc({{"", nsbca}, {"", nsbca}}, false)));
  const auto db_path = (dir / "l.db").string();
  REQUIRE(run({"index", (dir / "tree").string(), "--db", db_path, "--quiet"}).code == kExitOk);
  std::vector<std::string> rows;
  {
    auto db = open_read_only(db_path);
    rows = test::sql_lines(db, "SELECT path, format, compression FROM files ORDER BY path");
  }
  CHECK(rows == std::vector<std::string>{"door.lz|nsbca|lz11", "pack.lz|narc|lz10", "pack.lz/0|nsbca|none",
                                         "pack.lz/1|nsbca|none"});
  const auto info = run({"info", (dir / "tree/door.lz").string()});
  CHECK(info.code == kExitOk);
  CHECK(info.out.find("nsbca") != std::string::npos);
  CHECK(run({"pose", (dir / "tree/door.lz").string(), "--anim", "open", "--frame", "0"}).code == kExitOk);
  const auto listed = run({"ls", (dir / "tree/pack.lz").string(), "--format", "csv", "--no-header"});
  CHECK(listed.code == kExitOk);
  CHECK(test::count_of(listed.out, ",nsbca,") == 2);
  for (const char* member : {"0", "1"}) {
    const auto out = (dir / "m.bin").string();
    REQUIRE(run({"extract", (dir / "tree/pack.lz").string(), member, "--out", out}).code == kExitOk);
    CHECK(test::read_bytes(out) == nsbca);
    const auto member_info = run({"info", (dir / "tree/pack.lz").string() + "/" + member});
    CHECK(member_info.code == kExitOk);
    CHECK(member_info.out.find("nsbca") != std::string::npos);
    CHECK(run({"pose", (dir / "tree/pack.lz").string() + "/" + member, "--anim", "open", "--frame", "0"}).code == kExitOk);
  }
}

TEST_CASE("small ones: why an .nds is not a ROM, a failed PRS member's compression, a NUL in a name",
          "[cli][containers]") {
  Images sample;
  fs::create_directories(sample.dir / "tree");
  // An .nds whose logo CRC is wrong: unknown, saying which check failed (was only "no known format").
  auto rom = test::read_bytes(sample.image("nitro.nds"));
  rom[0x15C] = rom[0x15D] = std::byte{0};
  test::write_bytes(sample.dir / "tree/bad.nds", rom);
  // A PRS member whose stream is broken: an error row with compression prs (was none).
  auto fpk = fpk::write_fpk({{"a.bin", std::vector<std::byte>(3000, std::byte{7}), true}});
  const auto data_at = (std::to_integer<std::size_t>(fpk[16 + 0x16]) << 8) | std::to_integer<std::size_t>(fpk[16 + 0x17]);
  fpk[data_at] = std::byte{0x00};  // the first token: a short copy before the output start
  test::write_bytes(sample.dir / "tree/p.fpk", fpk);
  // A NARC file named "a\0bin": shown and stored as a\x00bin (was cut at the NUL), and reachable so.
  auto narc = narc::build_narc({{"a.bin", std::vector<std::byte>(16, std::byte{9})}}, true);
  const std::string text(reinterpret_cast<const char*>(narc.data()), narc.size());
  narc[text.find("a.bin") + 1] = std::byte{0};
  test::write_bytes(sample.dir / "tree/n.narc", narc);
  const auto db_path = (sample.dir / "s.db").string();
  run({"index", (sample.dir / "tree").string(), "--db", db_path, "--quiet"});
  std::vector<std::string> rows;
  {
    auto db = open_read_only(db_path);
    rows = test::sql_lines(db, "SELECT path, status, compression, error FROM files ORDER BY path");
  }
  REQUIRE(rows.size() == 5);
  CHECK_THAT(rows[0], Catch::StartsWith("bad.nds|unknown||no known format"));
  CHECK_THAT(rows[0], Catch::EndsWith("not read as nds: at offset 0x15C: expected the Nintendo logo CRC 0xCF56, found 0x0000"));
  CHECK(rows[2] == "n.narc/a\\x00bin|unknown|none|no known format: first bytes 09 09 09 09 09 09 09 09");
  CHECK_THAT(rows[4], Catch::StartsWith("p.fpk/a.bin|error|prs|"));
  const auto info = run({"info", (sample.dir / "tree/bad.nds").string()});
  CHECK(info.out.find("expected the Nintendo logo CRC 0xCF56") != std::string::npos);
  const auto listed = run({"ls", (sample.dir / "tree/n.narc").string(), "--format", "csv", "--no-header"});
  CHECK(listed.out.find("a\\x00bin,unknown,16,16,") != std::string::npos);
  const auto out = (sample.dir / "a.bin").string();
  CHECK(run({"extract", (sample.dir / "tree/n.narc").string(), "a\\x00bin", "--out", out}).code == kExitOk);
  CHECK(test::read_bytes(out) == std::vector<std::byte>(16, std::byte{9}));
}
