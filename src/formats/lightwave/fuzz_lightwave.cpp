// Fuzzes the LightWave LWMO/LWEN and Kuper parsers, the evaluator and the writer: any input must
// parse or fail cleanly; what parses must evaluate without crashing, write, and
// the written text must parse again.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/lightwave/lw_evaluate.h"
#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_model.h"
#include "formats/lightwave/lw_writer.h"
#include "model/validate.h"

using namespace animdex::lightwave;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  if (auto kuper = parse_kuper(bytes); kuper.ok()) {
    if (animdex::model::validate(to_model(kuper.value()))) __builtin_trap();  // the model keeps its rules
    if (kuper.value().axes.size() <= 9) (void)write_lw(kuper_to_motion(kuper.value(), default_kuper_mapping(kuper.value())));
  } else if (kuper.error().expected.empty()) {
    __builtin_trap();
  }
  auto parsed = parse_lw(bytes);
  if (!parsed.ok()) {
    if (parsed.error().expected.empty()) __builtin_trap();
    return 0;
  }
  if (animdex::model::validate(to_model(parsed.value()))) __builtin_trap();
  for (const auto& channel : parsed.value().channels) {
    const double first = channel.keys.front().time, last = channel.keys.back().time;
    for (double t : {first - 1.5, first, (first + last) / 2, last, last + 2.25}) (void)evaluate(channel, t);
  }
  if (!validate_for_writing(parsed.value())) {
    const auto text = write_lw(parsed.value());
    auto reparsed = parse_lw(std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()));
    if (!reparsed.ok()) __builtin_trap();
  }
  return 0;
}
