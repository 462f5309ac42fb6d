// Fuzzes the GNT .mot parser, the model mapping and the writer: any input must parse or
// fail cleanly; whatever parses must write, and the written file must parse and rewrite to
// the same bytes.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/gnt_mot/gnt_mot_model.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "model/validate.h"

using namespace animdex::gnt_mot;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto parsed = parse_mot(bytes);
  if (!parsed.ok()) {
    if (parsed.error().expected.empty()) __builtin_trap();  // every error says what was expected
    return 0;
  }
  if (animdex::model::validate(to_model(parsed.value()))) __builtin_trap();  // the model keeps its rules
  if (validate_for_writing(parsed.value())) __builtin_trap();  // a parsed file is always writable
  const auto rewritten = write_mot(parsed.value());
  auto again = parse_mot(rewritten);
  if (!again.ok()) __builtin_trap();
  if (write_mot(again.value()) != rewritten) __builtin_trap();
  return 0;
}
