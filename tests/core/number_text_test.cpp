#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/number_text.h"

using namespace animdex;

TEST_CASE("a float32 prints as its shortest decimal, and SQL holds that decimal", "[core][numbers]") {
  // The examples: what the file stored, not the float32's binary expansion.
  CHECK(number_text(static_cast<double>(1.35F)) == "1.35");
  CHECK(number_text(static_cast<double>(0.185584F)) == "0.185584");
  CHECK(number_text(static_cast<double>(0.5061446F)) == "0.5061446");
  CHECK(as_stored(static_cast<double>(1.35F)) == 1.35);  // `WHERE x = 1.35` finds it
  // Exact binary fractions stay exact; a float32 never needs more than 9 significant digits.
  CHECK(number_text(3.234375) == "3.234375");
  CHECK(number_text(static_cast<double>(0.016666668F)) == "0.016666668");
  CHECK(number_text(-0.0) == "-0");
  CHECK(number_text(static_cast<double>(std::numeric_limits<float>::max())) == "3.4028235e+38");
}

TEST_CASE("other doubles print as the shortest text that reads back to them", "[core][numbers]") {
  CHECK(number_text(0.1) == "0.1");  // LightWave's text: not a float32, kept as written
  CHECK(number_text(1.0 / 3.0) == "0.3333333333333333");
  CHECK(number_text(1e300) == "1e+300");
  // Plain decimals from 1e-7 to 1e21, as JavaScript prints them: sizes and sums read as numbers.
  CHECK(number_text(1859874.0) == "1859874");
  CHECK(number_text(0.0005) == "0.0005");
  CHECK(number_text(1.5e-8) == "1.5e-08");
  CHECK(number_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
}

TEST_CASE("as_stored is idempotent and keeps the float32 it came from", "[core][numbers]") {
  for (const float value : {1.35F, -0.82421875F, 0.1F, 1e-30F, 123456.78F, 3.14159265F}) {
    const double stored = as_stored(static_cast<double>(value));
    CHECK(as_stored(stored) == stored);
    CHECK(static_cast<float>(stored) == value);  // reads back to the file's float32
  }
}

TEST_CASE("a difference is taken between the decimals shown", "[core][numbers]") {
  // Two float32 keys one mantissa bit apart differ by 0.001953125 in binary; their decimals, which
  // the tables show, by 0.00195314: what a reader of those tables computes (diff, reuse tolerance).
  const float before = 0.31666666F;
  const float after = before + 0.001953125F;
  CHECK(number_text(as_stored(after)) == "0.3186198");
  CHECK(number_text(as_computed(as_stored(after) - as_stored(before))) == "0.00195314");
}

TEST_CASE("computed values get at most 9 significant digits", "[core][numbers]") {
  const auto computed_text = [](double value) { return number_text(as_computed(value)); };
  CHECK(computed_text(0.42858150000000003) == "0.4285815");
  CHECK(computed_text(1.719826061210624) == "1.71982606");
  CHECK(computed_text(static_cast<double>(0.5F) + static_cast<double>(0.25F)) == "0.75");
  CHECK(computed_text(static_cast<double>(1.35F)) == "1.35");  // a pose at a key: the key's own text
  CHECK(computed_text(-0.0) == "0");
  CHECK(std::fabs(as_computed(1.719826061210624) - 1.719826061210624) < 5e-9 * 1.72);
}

TEST_CASE("shown_as: float32 data prints as float32, exact numbers as they are", "[core][numbers]") {
  // Issue 39: a value computed from float32 keys prints no more digits than a float32 holds.
  CHECK(shortest_text(shown_as(1.0 / 3.0, Precision::float32)) == "0.33333334");
  CHECK(shortest_text(shown_as(1.40624999999, Precision::float32)) == "1.40625");
  CHECK(shortest_text(shown_as(static_cast<double>(-24.3F), Precision::float32)) == "-24.3");
  CHECK(shown_as(-0.0, Precision::float32) == 0.0);
  // DS fixed point: k/4096 exactly, not the float32's text.
  CHECK(shortest_text(shown_as(-4233695.0 / 4096.0, Precision::exact)) == "-1033.616943359375");
  CHECK(shortest_text(shown_as(0.1, Precision::exact)) == "0.1");
  // A world transform: arithmetic, 9 digits.
  CHECK(shortest_text(shown_as(0.42858150000000003, Precision::computed)) == "0.4285815");
}

TEST_CASE("exact_of_stored undoes the float32 rule for numbers stored by it before v16", "[core][numbers]") {
  const double exact = -4233695.0 / 4096.0;  // a DS fx32 translation
  CHECK(as_stored(exact) == -1033.617);
  CHECK(exact_of_stored(as_stored(exact)) == exact);
  // 0.1 is also the text the rule gives the float32 0.1F: a stored 0.1 reads as that float32, which
  // is why migration 016 rewrites only DS fixed-point columns.
  CHECK(exact_of_stored(0.1) == static_cast<double>(0.1F));
  CHECK(exact_of_stored(0.30000000000000004) == 0.30000000000000004);  // no float32's text: unchanged
  for (const double value : {0.5, 0.000244140625, 3.75, -12.25, 5000.000244140625})
    CHECK(exact_of_stored(as_stored(value)) == value);
}
