#include <catch2/catch.hpp>

#include "core/byte_reader.h"
#include "core/parse_deadline.h"
#include "indexer/rows.h"
#include "sample/sample_dump.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("a parse past its deadline fails at the offset it had reached", "[core][deadline]") {
  const std::vector<std::byte> bytes(64, std::byte{0});
  const ByteReader in(bytes);
  {
    ScopedParseDeadline deadline(std::chrono::hours(1));
    for (std::uint32_t i = 0; i < 3 * kDeadlineCheckInterval; ++i) (void)in.u32be(8);
  }
  ScopedParseDeadline deadline(std::chrono::nanoseconds(0));
  try {
    for (std::uint32_t i = 0; i < 3 * kDeadlineCheckInterval; ++i) (void)in.u32be(8);
    FAIL("the deadline was not enforced");
  } catch (const ParseFailure& failure) {
    CHECK(failure.error().offset == 8);
    CHECK_THAT(failure.error().message(), Catch::Contains("time limit"));
  }
}

TEST_CASE("a run read by read_array counts toward the deadline as its values", "[core][deadline]") {
  const std::vector<std::byte> bytes(16 + 4 * kDeadlineCheckInterval, std::byte{0});
  const ByteReader in(bytes);
  std::vector<std::uint32_t> words(kDeadlineCheckInterval);
  ScopedParseDeadline deadline(std::chrono::nanoseconds(0));
  try {
    in.read_array(16, Endian::big, std::span<std::uint32_t>(words));  // one run crosses a check
    FAIL("the deadline was not enforced");
  } catch (const ParseFailure& failure) {
    CHECK(failure.error().offset == 16);
    CHECK_THAT(failure.error().message(), Catch::Contains("time limit"));
  }
}

TEST_CASE("without a deadline nothing is checked", "[core][deadline]") {
  const std::vector<std::byte> bytes(8, std::byte{0});
  const ByteReader in(bytes);
  for (std::uint32_t i = 0; i < 3 * kDeadlineCheckInterval; ++i) CHECK_NOTHROW(in.u32be(0));
}

TEST_CASE("a file whose parse overruns the limit is recorded as an error", "[indexer][deadline]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  write_sample_dump(dir.path(), options);
  auto walked = walk_roots({dir / "files/chr/sas/0000.mot"});
  REQUIRE(walked.entries.size() == 1);
  ProcessOptions limits;
  limits.parse_time_limit = std::chrono::milliseconds(0);
  const auto late = process_file(walked.entries[0], ReferenceData::embedded(), limits);
  CHECK(late.status == FileStatus::error);
  CHECK_THAT(late.error.value_or(""), Catch::Contains("time limit"));
  const auto normal = process_file(walked.entries[0], ReferenceData::embedded(), ProcessOptions{});
  CHECK(normal.status == FileStatus::ok);
  CHECK(normal.parse_ms.has_value());
}
