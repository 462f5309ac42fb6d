#include "rig/gltf_writer.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <tiny_gltf.h>

// tinygltf's encoder, which Debian's libtinygltf exports; tiny_gltf.h declares it only in its
// implementation part, which the shared library holds.
namespace tinygltf {
std::string base64_encode(unsigned char const* bytes, unsigned int length);
}  // namespace tinygltf

namespace animdex::rig {

struct GltfWriter::State {
  tinygltf::Model model;
  std::size_t joints = 0;
};

namespace {

std::vector<double> doubles(const auto& values) { return std::vector<double>(values.begin(), values.end()); }

// Appends `values` as float32 to the one buffer; returns their byte offset (4-byte aligned, as
// every value here is a float).
std::size_t append(tinygltf::Model& model, const std::vector<float>& values) {
  auto& data = model.buffers.front().data;
  const auto offset = data.size();
  data.resize(offset + values.size() * sizeof(float));
  std::memcpy(data.data() + offset, values.data(), values.size() * sizeof(float));
  return offset;
}

// A view over the buffer from `offset` to its end: the accessors appended since share it.
int close_view(tinygltf::Model& model, std::size_t offset) {
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = offset;
  view.byteLength = model.buffers.front().data.size() - offset;
  model.bufferViews.push_back(view);
  return static_cast<int>(model.bufferViews.size() - 1);
}

// An accessor over float values of `width` components each, appended to the buffer inside the
// view that starts at `view_start` (its view index is set when the view is closed).
int add_accessor(tinygltf::Model& model, const std::vector<float>& values, std::size_t view_start, int type,
                 std::size_t width, bool bounds) {
  tinygltf::Accessor accessor;
  accessor.byteOffset = append(model, values) - view_start;
  accessor.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  accessor.type = type;
  accessor.count = values.size() / width;
  if (bounds) {
    accessor.minValues.assign(width, INFINITY);
    accessor.maxValues.assign(width, -INFINITY);
    for (std::size_t i = 0; i < values.size(); ++i) {
      accessor.minValues[i % width] = std::min<double>(accessor.minValues[i % width], values[i]);
      accessor.maxValues[i % width] = std::max<double>(accessor.maxValues[i % width], values[i]);
    }
  }
  model.accessors.push_back(accessor);
  return static_cast<int>(model.accessors.size() - 1);
}

// Points the accessors from `first` on at `view`.
void attach(tinygltf::Model& model, std::size_t first, int view) {
  for (auto i = first; i < model.accessors.size(); ++i) model.accessors[i].bufferView = view;
}

// A name as readers that bind animations by name compare it: three.js (PropertyBinding.
// sanitizeNodeName) turns white space into '_' and drops "[].:/", so "a.b" and "ab" are one name there.
std::string binding_key(const std::string& name) {
  std::string key;
  for (const char c : name)
    if (std::isspace(static_cast<unsigned char>(c))) key += '_';
    else if (std::string_view("[].:/").find(c) == std::string_view::npos) key += c;
  return key;
}

void add_nodes(tinygltf::Model& model, const model::Skeleton& skeleton) {
  std::set<std::string> taken;  // readers bind animations to nodes by name: each name once
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    const auto& joint = skeleton.joints[j];
    tinygltf::Node node;
    node.name = joint.name.empty() ? fmt::format("joint {}", j) : joint.name;
    // The suffix holds the joint's unique number, so one or two tries make any name unique.
    for (int suffix = 0; !taken.insert(binding_key(node.name)).second; ++suffix)
      node.name = fmt::format("{} (joint {}{})", node.name, j, suffix ? fmt::format("-{}", suffix) : "");
    node.translation = doubles(std::array<float, 3>{float(joint.bind.translation[0]), float(joint.bind.translation[1]),
                                                    float(joint.bind.translation[2])});
    const auto q = normalized(joint.bind.rotation);
    node.rotation = doubles(std::array<float, 4>{float(q[0]), float(q[1]), float(q[2]), float(q[3])});
    // A zero scale (a DS model hides a part so) cannot be a rest pose: the skin's inverse bind
    // matrices must exist. The node rests at scale 1 on that axis; every animation keys the 0.
    std::array<float, 3> scale{};
    for (std::size_t axis = 0; axis < 3; ++axis)
      scale[axis] = joint.bind.scale[axis] == 0 ? 1.0f : static_cast<float>(joint.bind.scale[axis]);
    node.scale = doubles(scale);
    model.nodes.push_back(node);
  }
  tinygltf::Scene scene;
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    const auto parent = skeleton.joints[j].parent;
    if (parent < 0) scene.nodes.push_back(static_cast<int>(j));
    else model.nodes[static_cast<std::size_t>(parent)].children.push_back(static_cast<int>(j));
  }
  model.scenes.push_back(scene);
  model.defaultScene = 0;
}

// The bind pose as the file stores it (float32 TRS), so the skin's inverse binds match the nodes.
std::vector<Transform> stored_bind(const tinygltf::Model& model) {
  std::vector<Transform> pose;
  for (const auto& node : model.nodes)
    pose.push_back({{node.translation[0], node.translation[1], node.translation[2]},
                    {node.rotation[0], node.rotation[1], node.rotation[2], node.rotation[3]},
                    {node.scale[0], node.scale[1], node.scale[2]}});
  return pose;
}

void add_skin(tinygltf::Model& model, const model::Skeleton& skeleton) {
  const auto world = model::world_matrices(skeleton, stored_bind(model));
  std::vector<float> inverse_binds;
  tinygltf::Skin skin;
  skin.name = skeleton.name;
  for (std::size_t j = 0; j < world.size(); ++j) {
    skin.joints.push_back(static_cast<int>(j));
    for (const double v : inverse_affine(world[j])) inverse_binds.push_back(static_cast<float>(v));
  }
  if (model.scenes.front().nodes.size() == 1) skin.skeleton = model.scenes.front().nodes.front();
  const auto start = model.buffers.front().data.size();
  skin.inverseBindMatrices = add_accessor(model, inverse_binds, start, TINYGLTF_TYPE_MAT4, 16, false);
  model.accessors.back().bufferView = close_view(model, start);
  model.skins.push_back(skin);
}

// One path of one joint over the frames: the values (width 3 or 4) and whether they never change.
struct Track {
  std::vector<float> values;
  bool constant = true;
};

// The node's own value of a path (what a player shows where no channel targets it).
std::vector<float> node_value(const tinygltf::Node& node, int path) {
  const auto& value = path == 0 ? node.translation : path == 1 ? node.rotation : node.scale;
  return std::vector<float>(value.begin(), value.end());
}

// A constant track equal to the node's value (either sign of a rotation) needs no channel.
bool at_rest(const Track& track, const tinygltf::Node& node, int path) {
  if (!track.constant) return false;
  const auto rest = node_value(node, path);
  if (track.values == rest) return true;
  if (path != 1) return false;
  for (std::size_t c = 0; c < 4; ++c)
    if (track.values[c] != -rest[c]) return false;
  return true;
}

Track track_of(const model::SampledAnimation& animation, std::size_t joint, int path) {
  Track track;
  Quaternion previous{0, 0, 0, 1};
  for (std::size_t f = 0; f < animation.frames.size(); ++f) {
    const auto& local = animation.frames[f][joint];
    std::vector<double> value;
    if (path == 0) value = doubles(local.translation);
    if (path == 2) value = doubles(local.scale);
    if (path == 1) {
      const auto q = f == 0 ? normalized(local.rotation) : nearer(normalized(local.rotation), previous);
      previous = q;
      value = doubles(q);
    }
    for (std::size_t c = 0; c < value.size(); ++c) {
      const auto v = static_cast<float>(value[c]);
      if (f > 0 && v != track.values[c]) track.constant = false;
      track.values.push_back(v);
    }
  }
  if (track.constant) track.values.resize(path == 1 ? 4 : 3);
  return track;
}

}  // namespace

GltfWriter::GltfWriter(const model::Skeleton& skeleton, std::string generator) : state_(std::make_unique<State>()) {
  auto& model = state_->model;
  model.asset.version = "2.0";
  model.asset.generator = std::move(generator);
  model.buffers.emplace_back();
  state_->joints = skeleton.joints.size();
  add_nodes(model, skeleton);
  add_skin(model, skeleton);
}

GltfWriter::~GltfWriter() = default;

void GltfWriter::add(const model::SampledAnimation& animation) {
  auto& model = state_->model;
  const auto frames = animation.frames.size();
  // Every joint's tracks first: which need a channel (not at rest), and whether any keeps the
  // animation's length (one that changes; else the first constant one is written whole).
  struct Planned {
    std::size_t joint;
    int path;
    Track track;
  };
  std::vector<Planned> planned;
  bool timed = false;
  for (std::size_t joint = 0; joint < state_->joints; ++joint)
    for (int path = 0; path < 3; ++path) {
      auto track = track_of(animation, joint, path);
      if (at_rest(track, model.nodes[joint], path)) continue;
      timed = timed || !track.constant;
      planned.push_back({joint, path, std::move(track)});
    }
  if (planned.empty()) {  // nothing moves: node 0 holds its rest translation over the whole length
    Track rest{node_value(model.nodes.front(), 0), true};
    planned.push_back({0, 0, std::move(rest)});
  }
  if (!timed) {
    auto& first = planned.front().track;
    const std::vector<float> value = first.values;
    first.values.clear();
    for (std::size_t f = 0; f < frames; ++f) first.values.insert(first.values.end(), value.begin(), value.end());
    first.constant = frames <= 1;
  }
  // glTF times may not be negative (a KH2 motion may start before 0): each animation starts at 0 s.
  std::vector<float> times;
  for (std::size_t f = 0; f < frames; ++f) times.push_back(static_cast<float>(static_cast<double>(f) / animation.fps));
  const auto start = model.buffers.front().data.size();
  const auto first_accessor = model.accessors.size();
  int all_times = -1, first_time = -1;  // made when a channel first needs them
  tinygltf::Animation out;
  out.name = animation.name;
  static constexpr const char* kPaths[] = {"translation", "rotation", "scale"};
  for (const auto& [joint, path, track] : planned) {
    const bool single = track.constant && times.size() > 1;
    if (single && first_time < 0) first_time = add_accessor(model, {times.front()}, start, TINYGLTF_TYPE_SCALAR, 1, true);
    if (!single && all_times < 0) all_times = add_accessor(model, times, start, TINYGLTF_TYPE_SCALAR, 1, true);
    tinygltf::AnimationSampler sampler;
    sampler.input = single ? first_time : all_times;
    sampler.output = add_accessor(model, track.values, start, path == 1 ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
                                  path == 1 ? 4 : 3, false);
    sampler.interpolation = "LINEAR";
    out.samplers.push_back(sampler);
    tinygltf::AnimationChannel channel;
    channel.sampler = static_cast<int>(out.samplers.size() - 1);
    channel.target_node = static_cast<int>(joint);
    channel.target_path = kPaths[path];
    out.channels.push_back(channel);
  }
  attach(model, first_accessor, close_view(model, start));
  model.animations.push_back(std::move(out));
}

std::size_t GltfWriter::animation_count() const { return state_->model.animations.size(); }
std::size_t GltfWriter::binary_bytes() const { return state_->model.buffers.front().data.size(); }

std::size_t GltfWriter::approximate_size() const {
  // Nodes, skin and inverse bind matrices take about as much JSON as a channel per joint.
  return binary_bytes() + (state_->model.accessors.size() + state_->joints + 1) * kJsonBytesPerChannel;
}

std::string GltfWriter::bytes(bool binary) const {
  tinygltf::TinyGLTF writer;
  std::ostringstream out;
  if (!writer.WriteGltfSceneToStream(&state_->model, out, false, binary))
    throw std::runtime_error("tinygltf could not serialise the glTF model");
  return std::move(out).str();
}

std::string base64(std::string_view bytes) {
  if (bytes.size() > std::numeric_limits<unsigned int>::max()) throw std::length_error("too many bytes for base64");
  return tinygltf::base64_encode(reinterpret_cast<const unsigned char*>(bytes.data()),
                                 static_cast<unsigned int>(bytes.size()));
}

}  // namespace animdex::rig
