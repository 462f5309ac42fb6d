#include "formats/kh2/kh2_mdlx_writer.h"

#include "core/byte_writer.h"
#include "formats/kh2/kh2_bar.h"

namespace animdex::kh2 {

std::vector<std::byte> write_mdlx(const std::vector<ModelBone>& bones, std::int32_t model_type) {
  ByteWriter entry;
  const auto i32 = [&](std::int32_t value) { entry.u32(static_cast<std::uint32_t>(value), LE); };
  const auto f32 = [&](float value) { entry.f32(value, LE); };
  entry.zeros(kModelReservedBytes);
  i32(model_type);
  entry.zeros(0x0C);  // +0x04 .. +0x0F: reserved, next sub-model offset 0
  entry.u16(static_cast<std::uint16_t>(bones.size()), LE);
  entry.u16(0, LE);  // texture count
  entry.u32(static_cast<std::uint32_t>(kModelHeaderSize), LE);  // the bone table right after the header
  entry.u32(0, LE);  // no body-part block
  i32(0);  // no mesh groups
  for (const auto& bone : bones) {
    i32(bone.index);
    i32(bone.parent);
    i32(0);
    i32(bone.flags);
    for (const float value : bone.scale) f32(value);
    f32(bone.scale_w);
    for (const float value : bone.rotation) f32(value);
    f32(0);
    for (const float value : bone.translation) f32(value);
    f32(0);
  }
  return write_bar({{kTypeModel, 0, "p_ex", entry.take(), -1}});
}

std::vector<ModelBone> chain_skeleton(int count, float twist) {
  std::vector<ModelBone> bones;
  for (int i = 0; i < count; ++i) {
    ModelBone bone;
    bone.index = i;
    bone.parent = i - 1;
    bone.scale = {1, 1, 1};
    bone.rotation = {0, 0, i == 0 ? 0.0F : twist};
    bone.translation = {i == 0 ? 0.0F : 10.0F, 0, 0};
    bones.push_back(bone);
  }
  return bones;
}

}  // namespace animdex::kh2
