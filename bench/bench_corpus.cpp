#include "bench_corpus.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/kh2/kh2_motion.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_types.h"
#include "formats/nitro/bca0_writer.h"

namespace animdex::bench {

namespace {

using namespace gnt_mot;

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  std::uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<std::uint32_t>(state_ >> 16);
  }
  int between(int low, int high) { return low + static_cast<int>(next() % static_cast<std::uint32_t>(high - low + 1)); }
  float uniform(float low, float high) { return low + (high - low) * static_cast<float>(next() % 100000) / 100000.0F; }

 private:
  std::uint64_t state_;
};

GntAnimation make_animation(Random& random, std::uint32_t id, CorpusSummary& summary) {
  GntAnimation animation;
  animation.animation_id = id;
  const int frames = random.between(10, 180);
  animation.play_speed = random.uniform(0.03F, 0.25F);
  animation.end_time = frame_to_seconds(frames);
  const int bones = random.between(20, 45);
  for (int b = 0; b < bones; ++b) {
    BoneSpec spec;
    spec.bone_id = static_cast<std::uint16_t>(b < 22 ? b : random.between(0x16, 0x78));
    spec.track_flags = b == 0 ? (kTrackTranslate | kTrackEnabled) : (kTrackRotate | kTrackEnabled);
    const int keys = random.between(3, 15);
    for (int k = 0; k < keys; ++k) {
      spec.key_frames.push_back(static_cast<std::int64_t>(frames) * k / (keys - 1));
      spec.values.push_back({random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-180, 180)});
    }
    // Distinct frames only (short animations with many keys would repeat some).
    for (std::size_t k = 1; k < spec.key_frames.size();)
      if (spec.key_frames[k] == spec.key_frames[k - 1]) {
        spec.key_frames.erase(spec.key_frames.begin() + static_cast<std::ptrdiff_t>(k));
        spec.values.erase(spec.values.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    summary.keys += spec.key_frames.size();
    animation.bones.push_back(make_bone(spec));
  }
  ++summary.animations;
  return animation;
}

void write_file(const std::filesystem::path& path, const std::vector<std::byte>& bytes, CorpusSummary& summary) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
  ++summary.files;
  summary.bytes += bytes.size();
}

// A KH2 interpolated motion of real size: 100-230 bones, 150-350 curves of 2-20 keys (linear and
// Hermite over a shared key-time table, tangents from a small table), as Sora's motions have.
kh2::Motion make_kh2_motion(Random& random, CorpusSummary& summary) {
  kh2::Motion motion;
  kh2::InterpolatedMotion body;
  const int frames = random.between(30, 120);
  body.bone_count = static_cast<std::int16_t>(random.between(100, 230));
  body.total_bone_count = static_cast<std::int16_t>(body.bone_count + 4);
  body.frame_count = 2 * frames;
  body.range = {0, static_cast<float>(frames), 30, 0};
  for (int t = 0; t <= frames; t += 2) body.key_times.push_back(static_cast<float>(t));
  body.key_time_count = static_cast<std::int32_t>(body.key_times.size());
  for (int t = 0; t < 16; ++t) body.tangents.push_back(random.uniform(-0.5F, 0.5F));
  const int curves = random.between(150, 350);
  for (int c = 0; c < curves; ++c) {
    const auto first = static_cast<std::int16_t>(body.keys.size());
    const int key_count = std::min(random.between(2, 20), body.key_time_count);
    const int stride = body.key_time_count / key_count;
    for (int k = 0; k < key_count; ++k) {
      const auto value = static_cast<std::int16_t>(body.values.size());
      body.values.push_back(random.uniform(-3.1F, 3.1F));
      const auto tangent = static_cast<std::int16_t>(random.between(0, 15));
      const auto kind = random.between(0, 3) == 0 ? kh2::Interpolation::linear : kh2::Interpolation::hermite;
      body.keys.push_back({kind, static_cast<std::uint16_t>(k * stride), value, tangent, tangent});
    }
    const auto bone = static_cast<std::int16_t>(c % body.bone_count);
    const auto channel = static_cast<std::uint8_t>(3 + (c / body.bone_count) % 6);
    body.forward_curves.push_back({bone, channel, static_cast<std::uint8_t>(key_count), first});
    summary.keys += static_cast<std::uint64_t>(key_count);
  }
  body.initial_poses = {{0, 6, 1.5F}};
  motion.interpolated = std::move(body);
  ++summary.animations;
  return motion;
}

// A raw motion: a 4x4 matrix per bone per stored frame (20-40 bones, 20-40 frames), each a turn
// about z with a translation, as KH2's raw motions store them.
kh2::Motion make_raw_kh2_motion(Random& random, CorpusSummary& summary) {
  kh2::Motion motion;
  motion.kind = kh2::MotionKind::raw;
  kh2::RawMotion raw;
  raw.bone_count = random.between(20, 40);
  raw.total_frame_count = random.between(20, 40);
  raw.frame_count = 2 * raw.total_frame_count;
  raw.range = {0, static_cast<float>(raw.total_frame_count), 30, 0};
  for (int f = 0; f < raw.total_frame_count; ++f)
    for (int b = 0; b < raw.bone_count; ++b) {
      const float turn = random.uniform(-3.1F, 3.1F), c = std::cos(turn), s = std::sin(turn);
      raw.matrices.push_back({c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, random.uniform(-5, 5), random.uniform(0, 9), 0, 1});
    }
  summary.keys += raw.matrices.size() * 3;  // a T, R and S key per matrix
  motion.raw = std::move(raw);
  ++summary.animations;
  return motion;
}

// A Player motion set of `slots` slots: about 40% real motions (some sharing an earlier slot's data)
// and the rest dummies, as KH2's obj/*.mset files are; one real motion in `raw_one_in` raw (0: none).
std::vector<std::byte> make_motion_set(Random& random, int slots, CorpusSummary& summary, int raw_one_in = 0) {
  std::vector<kh2::BarWriteEntry> entries;
  std::vector<int> real;
  for (int slot = 0; slot < slots; ++slot) {
    const int roll = random.between(0, 99);
    if (roll < 60) {
      entries.push_back({kh2::kTypeAnb, 1, "DUMM", {}, -1});
    } else if (roll < 66 && !real.empty()) {
      entries.push_back({kh2::kTypeAnb, 0, fmt::format("A{:03}", slot % 1000), {}, real[random.next() % real.size()]});
    } else {
      real.push_back(slot);
      const bool raw = raw_one_in > 0 && random.between(1, raw_one_in) == 1;
      entries.push_back({kh2::kTypeAnb, 0, fmt::format("A{:03}", slot % 1000),
                         kh2::build_anb(raw ? make_raw_kh2_motion(random, summary) : make_kh2_motion(random, summary)),
                         -1});
    }
  }
  return kh2::write_bar(entries, 1);
}

// An NSBCA of `animation_count` skeletal animations: 24 nodes, translations animated in fx16 and
// rotations from a Rot5 table at every frame, scales constant, 30-90 frames.
std::vector<std::byte> make_nsbca(Random& random, int animation_count, CorpusSummary& summary) {
  nsbca::NsbcaFile file;
  for (int a = 0; a < animation_count; ++a) {
    nsbca::JointAnimation animation;
    animation.name = fmt::format("anim_{:02}", a);
    const int frames = random.between(30, 90);
    animation.frame_count = static_cast<std::uint16_t>(frames);
    for (int r = 0; r < 32; ++r) animation.rot5.push_back(nsbca::encode_rot5(nsbca::rotation_about_z(r * 11.25)));
    const std::size_t samples = nsbca::sample_count(frames, 1);
    for (int n = 0; n < 24; ++n) {
      nsbca::NodeAnimation node;
      std::vector<double> slide;
      std::vector<std::uint16_t> turns;
      for (std::size_t i = 0; i < samples; ++i) {
        slide.push_back(random.uniform(-2, 2));
        turns.push_back(static_cast<std::uint16_t>(random.between(0, 31)));  // Rot5 entries
      }
      node.translation = {nsbca::animated_axis(slide, frames, 1, true, false), nsbca::constant_axis(0.5, false),
                          nsbca::constant_axis(0, false)};
      node.rotation = nsbca::animated_rotation(turns, frames, 1);
      node.scale = {nsbca::constant_axis(1, true), nsbca::constant_axis(1, true), nsbca::constant_axis(1, true)};
      node.tag = nsbca::tag_for(node, n);
      animation.nodes.push_back(std::move(node));
      summary.keys += 2 * samples;
    }
    file.animations.push_back(std::move(animation));
    ++summary.animations;
  }
  return nsbca::write_nsbca(file);
}

}  // namespace

std::vector<std::byte> motion_set(std::uint64_t seed, int slots, CorpusSummary& summary) {
  Random random(seed);
  return make_motion_set(random, slots, summary, 12);
}

CorpusSpec small_files_spec() {
  CorpusSpec spec;
  spec.characters = 1200;
  spec.animations_per_character = 4;
  spec.motion_sets = 0;
  spec.nsbca_files = 0;
  return spec;
}

CorpusSummary write_corpus(const std::filesystem::path& root, const CorpusSpec& spec) {
  CorpusSummary summary;
  for (int c = 0; c < spec.characters; ++c) {
    Random random(spec.seed * 1000003ULL + static_cast<std::uint64_t>(c));
    MotFile battle;
    battle.slot_count = 0x300;
    // Animation IDs spread over the slots, as real .mot files leave many empty.
    std::uint32_t id = 0;
    for (int a = 0; a < spec.animations_per_character && id < battle.slot_count; ++a) {
      battle.animations.push_back(make_animation(random, id, summary));
      id += static_cast<std::uint32_t>(random.between(1, 5));
    }
    const auto folder = root / "files/chr" / fmt::format("c{:03}", c);
    write_file(folder / "0000.mot", write_mot(battle), summary);
    MotFile select;
    select.slot_count = 1;
    select.animations = {battle.animations.front()};
    write_file(folder / "0001.mot", write_mot(select), summary);
  }
  for (int m = 0; m < spec.motion_sets; ++m) {
    Random random(spec.seed * 7000003ULL + static_cast<std::uint64_t>(m));
    write_file(root / "kh2/obj" / fmt::format("P_EX{:03}.mset", m), make_motion_set(random, 160, summary), summary);
  }
  for (int n = 0; n < spec.nsbca_files; ++n) {
    Random random(spec.seed * 9000011ULL + static_cast<std::uint64_t>(n));
    write_file(root / "nds/data" / fmt::format("anim{:02}.nsbca", n), make_nsbca(random, 10, summary), summary);
  }
  return summary;
}

}  // namespace animdex::bench
