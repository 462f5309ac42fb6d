// Fuzzes the GNT .mot parser, the model mapping and the writer: any input must parse or
// fail cleanly; the index's direct decode must agree with it (same error, or the same keys);
// whatever parses must write, and the written file must parse and rewrite to the same bytes.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/gnt_mot/gnt_mot_model.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "model/key_blob.h"
#include "model/validate.h"

using namespace animdex::gnt_mot;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto parsed = parse_mot(bytes);
  auto direct = parse_mot_model(bytes);
  if (parsed.ok() != direct.ok()) __builtin_trap();
  if (!parsed.ok()) {
    if (parsed.error().expected.empty()) __builtin_trap();  // every error says what was expected
    if (parsed.error().offset != direct.error().offset) __builtin_trap();
    return 0;
  }
  const auto mapped = to_model(parsed.value());
  if (animdex::model::validate(mapped)) __builtin_trap();  // the model keeps its rules
  if (mapped.animations.size() != direct.value().animations.size()) __builtin_trap();
  for (std::size_t a = 0; a < mapped.animations.size(); ++a) {
    const auto& tracks = mapped.animations[a].tracks;
    if (tracks.size() != direct.value().animations[a].tracks.size()) __builtin_trap();
    for (std::size_t t = 0; t < tracks.size(); ++t)
      if (!animdex::model::identical(tracks[t].keys, direct.value().animations[a].tracks[t].keys)) __builtin_trap();
  }
  if (validate_for_writing(parsed.value())) __builtin_trap();  // a parsed file is always writable
  const auto rewritten = write_mot(parsed.value());
  auto again = parse_mot(rewritten);
  if (!again.ok()) __builtin_trap();
  if (write_mot(again.value()) != rewritten) __builtin_trap();
  return 0;
}
