#include "sample/sample_dump.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <stdexcept>
#include <unistd.h>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/kh2/kh2_mdlx_writer.h"
#include "formats/nitro/bmd0_builder.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_writer.h"
#include "output/output_folder.h"

namespace animdex {

namespace {

namespace fs = std::filesystem;
using namespace gnt_mot;

// GNT4 character folder codes in internal-ID order (format note, "Character folder codes").
const char* const kCharacterCodes[] = {"sas", "hak", "kak", "loc", "iru", "zab", "sak", "nar", "ino", "sik", "nej",
                                       "hin", "gai", "kan", "kar", "kib", "dog", "gar", "oro", "obo", "miz", "ank",
                                       "jir", "cho", "ten", "tem", "sin", "ita", "tsu", "sar", "kim", "bou", "kid",
                                       "sko", "tay", "kis", "sa2", "na9", "kab", "hi2", "ta2"};
constexpr int kCharacterTotal = static_cast<int>(std::size(kCharacterCodes));
static_assert(kCharacterTotal == kSampleCharacterLimit, "sample_dump.h states the list's length");

constexpr std::uint32_t kSlotCount = 0x200;
constexpr std::uint32_t kIdle = 0x0000, kWalkForward = 0x0001, kWalkBackward = 0x0002, kDash = 0x0003,
                        kJumpStartup = 0x0030, kJumpLand = 0x0031, k5B = 0x0090, k5A = 0x00A0, kThrow = 0x0140,
                        k5X = 0x01B0;

// Small deterministic generator (values must not depend on the standard library's distributions).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
  std::uint32_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state_ >> 33);
  }
  float uniform(float low, float high) { return low + (high - low) * static_cast<float>(next() % 10001) / 10000.0F; }
  int between(int low, int high) { return low + static_cast<int>(next() % static_cast<std::uint32_t>(high - low + 1)); }

 private:
  std::uint64_t state_;
};

std::uint64_t seed_of(const std::string& text, std::uint32_t salt) {
  std::uint64_t seed = 1469598103934665603ULL;  // FNV-1a over the text, then the salt
  for (char c : text) seed = (seed ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return (seed ^ (0x9E3779B97F4A7C15ULL * (salt + 1))) * 1099511628211ULL;
}

bool has_throw(int character_index) { return character_index % 3 != 2; }
bool has_long_hair(int character_index) { return character_index % 4 == 0; }

BoneSpec random_bone(Lcg& random, std::uint16_t bone_id, std::int64_t frame_count, CoordinateEncoding encoding) {
  BoneSpec spec;
  spec.bone_id = bone_id;
  spec.encoding = encoding;
  spec.track_flags = bone_id == 0 ? (kTrackTranslate | kTrackEnabled) : (kTrackRotate | kTrackEnabled);
  spec.junk_fill = std::byte{0xCD};  // real files carry leftover bytes in their padding
  std::int64_t frame = 0;
  while (true) {
    spec.key_frames.push_back(frame);
    if (frame >= frame_count) break;
    frame = std::min<std::int64_t>(frame_count, frame + random.between(2, 12));
  }
  for (std::size_t k = 0; k < spec.key_frames.size(); ++k) {
    if (bone_id == 0) spec.values.push_back({random.uniform(-2, 2), random.uniform(0, 1), random.uniform(-2, 2), 0});
    else spec.values.push_back({random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-180, 180)});
  }
  return spec;
}

GntAnimation make_animation(std::uint32_t id, const std::string& seed_text, const std::vector<std::uint16_t>& bones,
                            CoordinateEncoding encoding = CoordinateEncoding::bf16) {
  Lcg random(seed_of(seed_text, id));
  GntAnimation animation;
  animation.animation_id = id;
  const std::int64_t frame_count = random.between(12, 90);
  animation.play_speed = random.uniform(0.03F, 0.25F);
  animation.end_time = frame_to_seconds(frame_count);
  for (auto bone : bones) animation.bones.push_back(make_bone(random_bone(random, bone, frame_count, encoding)));
  return animation;
}

std::vector<std::uint16_t> body_bones() {
  std::vector<std::uint16_t> bones;
  for (std::uint16_t bone = 0; bone <= 0x15; ++bone) bones.push_back(bone);
  return bones;
}

std::vector<GntAnimation> battle_animations(int index, const std::string& code) {
  const auto body = body_bones();
  std::vector<GntAnimation> animations;
  // Idle: the character's own; with long hair it also moves the hair bones 0x6F..0x76.
  auto idle_bones = body;
  if (has_long_hair(index))
    for (std::uint16_t bone = 0x6F; bone <= 0x76; ++bone) idle_bones.push_back(bone);
  animations.push_back(make_animation(kIdle, code, idle_bones));
  // Walks are shared by groups of four characters (same seed text -> identical content).
  const std::string group = "walk-group-" + std::to_string(index / 4);
  animations.push_back(make_animation(kWalkForward, group, body));
  animations.push_back(make_animation(kWalkBackward, group, body));
  animations.push_back(make_animation(kDash, code, body));
  animations.push_back(make_animation(kJumpStartup, code, body));
  animations.push_back(make_animation(kJumpLand, code, body));
  animations.push_back(make_animation(k5B, code, body));
  animations.push_back(make_animation(k5A, code, body));
  if (has_throw(index)) {
    // The universal throw: one animation for everyone, moving bones 118-120 that most lack.
    auto throw_bones = body;
    for (std::uint16_t bone = 0x76; bone <= 0x78; ++bone) throw_bones.push_back(bone);
    animations.push_back(make_animation(kThrow, "universal-throw", throw_bones));
  }
  // 5X with a time-only track (flags1 0x0000), and f32 keys for one character (as Rev 3 files have).
  auto special = make_animation(k5X, code, body, index == 1 ? CoordinateEncoding::f32 : CoordinateEncoding::bf16);
  special.bones.push_back(make_bone(BoneSpec{0x5A, kTrackEnabled, CoordinateEncoding::none, {0, 30, 60}, {}, std::byte{0}}));
  animations.push_back(std::move(special));
  return animations;
}

std::string_view as_text(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A door on a hinge: "open" turns node 1 by 90 degrees over 8 frames (every frame), "close" turns it
// back with samples every 2nd frame; node 0 is the identity root, node 2 keeps the bind pose.
std::vector<std::byte> sample_nsbca() {
  nsbca::NsbcaFile file;
  for (const auto& [name, step] : std::vector<std::pair<std::string, int>>{{"open", 1}, {"close", 2}}) {
    nsbca::JointAnimation animation;
    animation.name = name;
    animation.frame_count = 8;
    const std::size_t samples = nsbca::sample_count(8, step);
    std::vector<std::uint16_t> indices;
    std::vector<double> slide;
    for (std::size_t s = 0; s < samples; ++s) {
      const double progress = static_cast<double>(s) / static_cast<double>(samples - 1);
      const double angle = 90.0 * (name == "open" ? progress : 1.0 - progress);
      animation.rot5.push_back(nsbca::encode_rot5(nsbca::rotation_about_z(angle)));
      indices.push_back(static_cast<std::uint16_t>(s));
      slide.push_back(0.25 * progress);
    }
    nsbca::NodeAnimation root;
    root.tag = nsbca::tag_for(root, 0);
    nsbca::NodeAnimation hinge;
    hinge.translation = {nsbca::animated_axis(slide, 8, step, true, false), nsbca::constant_axis(1.5, false),
                         nsbca::constant_axis(0, false)};
    hinge.rotation = nsbca::animated_rotation(indices, 8, step);
    hinge.scale = {nsbca::constant_axis(1, true), nsbca::constant_axis(1, true), nsbca::constant_axis(1, true)};
    hinge.tag = nsbca::tag_for(hinge, 1);
    nsbca::NodeAnimation handle;
    handle.translation = {nsbca::base_axis(), nsbca::base_axis(), nsbca::base_axis()};
    handle.rotation = nsbca::base_rotation();
    handle.scale = {nsbca::base_axis(), nsbca::base_axis(), nsbca::base_axis()};
    handle.tag = nsbca::tag_for(handle, 2);
    animation.nodes = {root, hinge, handle};
    file.animations.push_back(std::move(animation));
  }
  return nsbca::write_nsbca(file);
}

// The door's model: node names for the animation's nodes (its animations are named `open` and
// `close`, not after the model, so the index finds it as the one 3-node model in the folder), and
// the handle's bind pose, which the animation leaves to the model.
std::vector<std::byte> sample_nsbmd() {
  nitro::Bmd0File file;
  file.models.push_back(nitro::tree_model("door", {"door_root", "hinge", "handle"}, {-1, 0, 1}, {"wood", "brass"}));
  auto& handle = file.models[0].nodes[2].bind;
  handle.flag = nitro::kNodeRotZero | nitro::kNodeScaleOne;
  handle.translation = {3072, 4096, 205};  // (0.75, 1, 0.05) in fx32
  return nitro::write_bmd0(file);
}


}  // namespace

std::vector<std::string> sample_bone_118_characters(int character_count) {
  std::vector<std::string> codes;
  for (int i = 0; i < std::min(character_count, kCharacterTotal); ++i)
    if (has_throw(i) || has_long_hair(i)) codes.emplace_back(kCharacterCodes[i]);
  std::sort(codes.begin(), codes.end());
  return codes;
}

SampleDumpSummary write_sample_dump(const fs::path& root, const SampleDumpOptions& options) {
  OutputFolder out(root, "sample", /*force=*/true);
  auto summary = write_sample_dump(out, options);
  out.finish();
  return summary;
}

SampleDumpSummary write_sample_dump(OutputFolder& out, const SampleDumpOptions& options) {
  SampleDumpSummary summary;
  auto emit_text = [&](const std::string& relative, std::string_view bytes) {
    out.write(relative, bytes);
    summary.files.push_back(relative);
  };
  auto emit = [&](const std::string& relative, const std::vector<std::byte>& bytes) { emit_text(relative, as_text(bytes)); };
  std::vector<std::byte> first_battle_file;
  for (int i = 0; i < std::min(options.character_count, kCharacterTotal); ++i) {
    const std::string code = kCharacterCodes[i];
    summary.characters.push_back(code);
    MotFile battle;
    battle.slot_count = kSlotCount;
    battle.animations = battle_animations(i, code);
    auto battle_bytes = write_mot(battle);
    if (first_battle_file.empty()) first_battle_file = battle_bytes;
    emit("files/chr/" + code + "/0000.mot", battle_bytes);
    // 0001.mot: only the character-select idle, the same animation as in 0000.mot.
    MotFile select;
    select.slot_count = 1;
    select.animations.push_back(battle.animations.front());
    emit("files/chr/" + code + "/0001.mot", write_mot(select));
  }
  if (options.include_kh2) {
    // A Player set whose groups of four exercise the fallback (see kh2-mset.md "Slot mapping"),
    // a Default set holding a nested motion set, and a bare cutscene ANB.
    emit("kh2/obj/P_SAMPLE.mset", kh2::build_motion_set("ADAD" "ADAA" "DDAD" "DDAD" "DDDD" "AAAA", 1));
    // Its skeleton: the set's motions animate 32 bones (kh2-mdlx.md: a model beside its set).
    emit("kh2/obj/P_SAMPLE.mdlx", kh2::write_mdlx(kh2::chain_skeleton(32, 0.1F)));
    emit("kh2/obj/M_SAMPLE.mset",
         kh2::write_bar({{kh2::kTypeAnb, 0, "A000", kh2::build_anb(kh2::build_interpolated_motion(24, {0, 1})), -1},
                         {kh2::kTypeAnb, 1, "DUMM", {}, -1},
                         {kh2::kTypeAnb, 0, "A002", kh2::build_anb(kh2::build_interpolated_motion(24, {2})), -1},
                         {kh2::kTypeMotionset, 0, "NEST", kh2::build_motion_set("DA", 0), -1}},
                        0));
    emit("kh2/anm/S_SAMPLE.anb", kh2::build_anb(kh2::build_interpolated_motion(24, {3, 4, 5}, 7)));
  }
  if (options.include_nsbca) {
    emit("nds/data/door.nsbca", sample_nsbca());
    emit("nds/data/door.nsbmd", sample_nsbmd());
  }
  if (!options.include_problem_files) return summary;

  // A copy cut short: the declared size no longer matches.
  std::vector<std::byte> truncated(first_battle_file.begin(), first_battle_file.begin() + first_battle_file.size() / 2);
  emit("files/chr/bad/0000.mot", truncated);
  // A slot offset that is not 16-aligned.
  auto misaligned = first_battle_file;
  misaligned[0x10 + 3] = static_cast<std::byte>(static_cast<unsigned char>(misaligned[0x10 + 3]) | 0x04);
  emit("files/chr/bad/0001.mot", misaligned);
  // .mot files that are not GNT: Motorola S-records, LightWave motion text, 8 random bytes.
  emit_text("files/tools/loader.mot", "S00F000068656C6C6F202020202000003C\nS11F00007C0802A6900100049421FFF07C6C1B787C8C23783C6000003863000026\nS9030000FC\n");
  emit_text("files/lw/camera.mot", "LWMO\n1\n9\n2\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n1 2 3 0 0 0 1 1 1\n30 0 0 0 0\n");
  emit("files/chr/ank/0002.mot", {std::byte{0x02}, std::byte{0x84}, std::byte{0x10}, std::byte{0x98}, std::byte{0x24},
                                  std::byte{0x01}, std::byte{0x84}, std::byte{0x21}});
  return summary;
}

bool is_sample_folder(const fs::path& root, const SampleDumpOptions& options) {
  std::error_code error;
  if (!fs::exists(root, error)) return true;
  if (!fs::is_directory(root, error)) return false;
  // The sample's own file list, from a throw-away copy (it is small and deterministic).
  const fs::path scratch = fs::temp_directory_path() / fmt::format("animdex-sample-list-{}", ::getpid());
  const auto summary = write_sample_dump(scratch, options);
  fs::remove_all(scratch, error);
  const std::set<std::string> ours(summary.files.begin(), summary.files.end());
  for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_directory(error) || it->path().filename() == OutputFolder::kManifestName) continue;
    if (!it->is_regular_file(error) || !ours.count(fs::relative(it->path(), root).generic_string())) return false;
  }
  return !error;
}

}  // namespace animdex
