#include "bench_corpus.h"

#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_writer.h"

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

}  // namespace

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
  return summary;
}

}  // namespace animdex::bench
