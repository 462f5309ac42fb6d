// `ls`, `extract` and member paths from the command line: exit codes, refusals, what is printed.
#include <catch2/catch.hpp>
#include <sstream>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

using test::run;

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
