#pragma once
// A skeleton and its animations as glTF 2.0 (gltf-export.md), written through tinygltf: the
// joints as nodes (names, parents, bind pose as TRS), a skin over them with inverse bind matrices
// (no mesh: Blender builds an armature from the skin), and one animation per sampled animation,
// every channel LINEAR with one key per sample, the first at 0 s (glTF times are not negative). A channel constant over the animation is one key,
// and none where it equals the node's bind value (the node shows that value untargeted): a KH2
// motion keys a fraction of its bones, and the file and its JSON stay that much smaller.
// Rotations are made sign-continuous so slerp takes the short way. Numbers are stored as float32.
// A bind scale of 0 rests at 1 (inverse bind matrices need an invertible rest; the animations key
// the 0), so only a joint under such a node differs from the model's bind pose at rest.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "model/skeleton.h"

namespace animdex::rig {

class GltfWriter {
 public:
  // `skeleton` must be valid (model::validate); joint names that are empty become "joint N".
  GltfWriter(const model::Skeleton& skeleton, std::string generator);
  ~GltfWriter();
  GltfWriter(const GltfWriter&) = delete;
  GltfWriter& operator=(const GltfWriter&) = delete;

  // Adds one animation (valid for the skeleton); its samples are packed at once and not kept.
  void add(const model::SampledAnimation& animation);
  std::size_t animation_count() const;
  std::size_t binary_bytes() const;  // the buffer so far
  // At most this many JSON bytes per animated channel (its accessor, sampler and channel: about 190
  // in a KH2 export), the figure approximate_size() counts.
  static constexpr std::size_t kJsonBytesPerChannel = 256;
  // The file so far, the buffer and an upper estimate of its JSON, without writing it.
  std::size_t approximate_size() const;

  // The whole file: `.glb` when `binary`, else `.gltf` JSON with the buffer embedded as a data URI.
  std::string bytes(bool binary) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// `bytes` as base64 (RFC 4648, padded), by tinygltf's encoder: how a page embeds a .glb.
std::string base64(std::string_view bytes);

}  // namespace animdex::rig
