// Fuzzes every Nitro G3D kind in this folder, chosen by the input's magic (the dictionary lists
// them): any input must parse or fail cleanly with an offset inside it; what parses must map to a
// model that keeps its rules, pose at its first, middle and last frame, and write back to bytes
// that parse to the same thing.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bma0_format.h"
#include "formats/nitro/bmd0_builder.h"
#include "formats/nitro/bmd0_format.h"
#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/bta0_format.h"
#include "formats/nitro/btp0_builder.h"
#include "formats/nitro/btp0_format.h"
#include "formats/nitro/bva0_builder.h"
#include "formats/nitro/bva0_format.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

using Input = std::span<const std::byte>;

template <typename Parsed>
bool failed_cleanly(const Result<Parsed>& parsed, std::size_t size) {
  if (parsed.ok()) return false;
  if (parsed.error().expected.empty() || parsed.error().offset > size) __builtin_trap();
  return true;
}

template <typename Animations>
void pose_each(Input bytes, const Animations& animations, Answer<Pose> (*pose)(Input, const PoseRequest&)) {
  for (const auto& animation : animations)
    for (const int frame : {0, animation.frame_count / 2, animation.frame_count - 1}) {
      PoseRequest request;
      request.animation = animation.name;
      request.frame = frame;
      (void)pose(bytes, request);
    }
}

void fuzz_bva0(Input bytes) {
  const auto parsed = parse_bva0(bytes);
  if (failed_cleanly(parsed, bytes.size())) return;
  if (model::validate(bva0_to_model(parsed.value()))) __builtin_trap();
  pose_each(bytes, parsed.value().animations, &bva0_pose);
  const auto written = write_bva0(parsed.value());
  const auto reparsed = parse_bva0(written);
  if (!reparsed.ok() || write_bva0(reparsed.value()) != written) __builtin_trap();
}

void fuzz_bmd0(Input bytes) {
  const auto parsed = parse_bmd0(bytes);
  if (failed_cleanly(parsed, bytes.size())) return;
  if (model::validate(bmd0_to_model(parsed.value()))) __builtin_trap();
  for (const auto& model : parsed.value().models) {
    PoseRequest request;
    request.animation = model.name;
    request.frame = 0;
    (void)bmd0_pose(bytes, request);
  }
  const auto written = write_bmd0(parsed.value());
  const auto reparsed = parse_bmd0(written);
  if (!reparsed.ok() || write_bmd0(reparsed.value()) != written) __builtin_trap();
}

// The material animations (BTA0, BTP0, BMA0) alike: parse, model, pose, and the writer's bytes
// re-parse to the same animations. A layout the writer cannot make (its 16-bit offsets past 64 KiB,
// when the input shared arrays or keys between materials) is skipped, not a failure.
template <typename File>
void fuzz_material_kind(Input bytes, Result<File> (*parse)(Input), model::AnimationFile (*to_model)(const File&),
                        Answer<Pose> (*pose)(Input, const PoseRequest&), Bytes (*write)(const File&)) {
  const auto parsed = parse(bytes);
  if (failed_cleanly(parsed, bytes.size())) return;
  if (model::validate(to_model(parsed.value()))) __builtin_trap();
  pose_each(bytes, parsed.value().animations, pose);
  Bytes written;
  try {
    written = write(parsed.value());
  } catch (const std::length_error&) {
    return;
  }
  const auto reparsed = parse(written);
  if (!reparsed.ok() || reparsed.value().animations != parsed.value().animations) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Input bytes(reinterpret_cast<const std::byte*>(data), size);
  const std::string_view magic(reinterpret_cast<const char*>(data), size < 4 ? size : 4);
  if (magic == "BVA0") fuzz_bva0(bytes);
  else if (magic == "BMD0") fuzz_bmd0(bytes);
  else if (magic == "BTA0") fuzz_material_kind(bytes, &parse_bta0, &bta0_to_model, &bta0_pose, &write_bta0);
  else if (magic == "BTP0") fuzz_material_kind(bytes, &parse_btp0, &btp0_to_model, &btp0_pose, &write_btp0);
  else if (magic == "BMA0") fuzz_material_kind(bytes, &parse_bma0, &bma0_to_model, &bma0_pose, &write_bma0);
  return 0;
}
