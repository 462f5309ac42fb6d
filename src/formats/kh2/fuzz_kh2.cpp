// Fuzzes the KH2 readers (motion set, ANB, plain BAR, bare Motion), the mapping to the common model
// and the Motion writer: any input must parse or fail cleanly with an offset inside the input;
// a parsed Motion must write, re-parse, and write the same bytes again.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/kh2/kh2_model.h"
#include "formats/kh2/kh2_motion_set.h"
#include "formats/kh2/kh2_motion_writer.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

void check_error(const ParseError& error, std::size_t size) {
  if (error.expected.empty() || error.offset > size) __builtin_trap();
}

void round_trip(const Motion& motion) {
  const auto written = write_motion(motion);
  auto reparsed = parse_motion(written);
  if (!reparsed.ok()) __builtin_trap();
  if (write_motion(reparsed.value()) != written) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  for (auto parse : {&parse_motion_set, &parse_anb, &parse_plain_bar}) {
    auto parsed = parse(bytes);
    if (!parsed.ok()) {
      check_error(parsed.error(), size);
      continue;
    }
    const auto model = to_model(parsed.value());
    if (animdex::model::validate(model)) __builtin_trap();  // the model keeps its rules
    if (model.animations.size() != parsed.value().motions.size()) __builtin_trap();
    for (const auto& motion : parsed.value().motions) round_trip(motion.motion);
  }
  auto motion = parse_motion(bytes);
  if (!motion.ok()) {
    check_error(motion.error(), size);
    return 0;
  }
  if (animdex::model::validate(to_model(motion.value()))) __builtin_trap();
  round_trip(motion.value());
  return 0;
}
