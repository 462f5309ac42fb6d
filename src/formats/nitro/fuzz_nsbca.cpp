// Fuzzes the NSBCA parser, decoding (every node at the first, a middle and the last frame), the
// mapping to the common model and the writer: any input must parse or fail cleanly with an offset
// inside it; what parses must write, re-parse and write the same bytes again.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/bca0_model.h"
#include "formats/nitro/bca0_parser.h"
#include "formats/nitro/bca0_writer.h"
#include "model/validate.h"

using namespace animdex::nsbca;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto parsed = parse_nsbca(bytes);
  if (!parsed.ok()) {
    if (parsed.error().expected.empty() || parsed.error().offset > size) __builtin_trap();
    return 0;
  }
  for (const auto& animation : parsed.value().animations)
    for (const auto& node : animation.nodes)
      for (int frame : {0, animation.frame_count / 2, animation.frame_count - 1}) (void)evaluate_node(animation, node, frame);
  if (animdex::model::validate(to_model(parsed.value()))) __builtin_trap();  // the model keeps its rules
  const auto written = write_nsbca(parsed.value());
  auto reparsed = parse_nsbca(written);
  if (!reparsed.ok()) __builtin_trap();
  if (write_nsbca(reparsed.value()) != written) __builtin_trap();
  return 0;
}
