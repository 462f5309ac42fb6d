#include "formats/gnt_mot/gnt_mot_parser.h"

#include "formats/gnt_mot/gnt_mot_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <span>
#include <type_traits>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "model/animation.h"

namespace animdex::gnt_mot {

namespace {

std::string hex(std::uint64_t value) { return fmt::format("0x{:X}", value); }

// Bytes one GNTA may use: from its offset to the next GNTA in file order (or the end).
struct Extent {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};

void require_zero_word(const ByteReader& in, std::uint64_t at, const char* what) {
  const auto value = in.u32be(at);
  if (value != 0) fail_at(at, fmt::format("{} to be zero", what), hex(value));
}

// Times are seconds (frame / 60): finite, and small enough that the frame number fits easily.
float read_time(const ByteReader& in, std::uint64_t at, std::string_view what) {
  const float seconds = in.finite_f32(at, BE, what);
  if (std::fabs(seconds) > kMaxSeconds)
    fail_at(at, fmt::format("{} within +-{:g} seconds", what, kMaxSeconds), fmt::format("{}", seconds));
  return seconds;
}

// What one bone header says, checked.
struct BoneHeader {
  std::uint16_t flags1 = 0;
  std::uint16_t track_flags = 0;
  std::uint16_t bone_id = 0;
  std::uint64_t key_count = 0;
  float total_time = 0.0F;
  std::uint32_t time_offset = 0;
  std::uint32_t coordinates_offset = 0;
  CoordinateEncoding encoding = CoordinateEncoding::none;
};

// The 32-byte header is read in one checked run of eight big-endian words (its GNTA's extent, which
// holds every bone header, was checked before), then each rule is tested on its word; a failing
// field is read again the checked way, so its error and offset are those of a field-by-field read.
BoneHeader read_bone_header(const ByteReader& in, std::uint64_t header_at) {
  std::array<std::uint32_t, 8> words;
  in.read_array(header_at, BE, std::span<std::uint32_t>(words));
  BoneHeader bone;
  bone.flags1 = static_cast<std::uint16_t>(words[0] >> 16);
  bone.track_flags = static_cast<std::uint16_t>(words[0]);
  bone.bone_id = static_cast<std::uint16_t>(words[1] >> 16);
  bone.key_count = words[1] & 0xFFFF;
  bone.total_time = std::bit_cast<float>(words[2]);
  if (!(std::fabs(bone.total_time) <= kMaxSeconds)) [[unlikely]]  // also true for NaN
    read_time(in, header_at + 0x08, "the bone's total time");
  if (words[3] != 0) [[unlikely]]
    require_zero_word(in, header_at + 0x0C, "bone header word 0x0C");
  bone.time_offset = words[4];
  bone.coordinates_offset = words[5];
  if (words[6] != 0) [[unlikely]]
    require_zero_word(in, header_at + 0x18, "bone header word 0x18");
  if (words[7] != 0) [[unlikely]]
    require_zero_word(in, header_at + 0x1C, "bone header word 0x1C");
  const auto encoding = encoding_from_flags(bone.flags1);
  if (!encoding)
    fail_at(header_at, "flags1 0x0200 together with 0x0002 (16-bit) or 0x0004 (f32) coordinates",
            hex(bone.flags1));
  bone.encoding = *encoding;
  return bone;
}

// One walk over a MOT file checks every rule of the format note and hands what it reads to a sink:
// MotSink keeps the file's own structs (what the writer rebuilds files from), ModelSink decodes
// straight into the common model's key columns (the index's path: no struct per key or bone).
// A sink provides: file(slot_count, declared_size, table_padding, animation_count), animation(GntaHeader),
// bone(BoneHeader) -> times(seconds per key) and coordinates(StoredCoordinates: four a key, checked),
// then bone_padding(after_times, after_coordinates), and finish().
struct GntaHeader {
  std::uint32_t animation_id = 0;
  std::uint32_t file_offset = 0;
  std::uint16_t header_word0 = 0;
  std::uint64_t bone_count = 0;
  float play_speed = 0.0F;
  float end_time = 0.0F;
};

// A bone's keys as read, before the sink takes them: times, then coordinates as stored (four
// 2-byte bf16 words or four 4-byte float32 words a key): at most 20 bytes a key of the bone being
// read. The runs keep their largest size from bone to bone (a bone has at most 65,535 keys), which
// the file's running charge of every bone's keys covers. Each sink decodes the words once,
// into what it keeps.
inline constexpr std::size_t kScratchBytesPerKey = 4 + 4 * 4;

// A run of T for one bone at a time, not value-initialised (each bone's read overwrites the part it
// uses): it grows to the largest bone's size and never shrinks. A vector's resize zero-filled every
// growth, a tenth of the time reading the words took.
template <typename T>
class ScratchRun {
 public:
  std::span<T> sized(std::size_t count) {
    if (count > capacity_) {
      buffer_ = std::make_unique_for_overwrite<T[]>(count);
      capacity_ = count;
    }
    return {buffer_.get(), count};
  }

 private:
  std::unique_ptr<T[]> buffer_;
  std::size_t capacity_ = 0;
};

struct KeyScratch {
  ScratchRun<float> times;
  ScratchRun<std::uint16_t> halves;  // bf16 words as stored (a bf16 bone's)
  ScratchRun<std::uint32_t> words;   // float32 bits as stored (a float32 bone's)
};

// A bone's checked coordinate words in the width the file stores them: `halves` for bf16, `words`
// for float32, the other empty.
struct StoredCoordinates {
  CoordinateEncoding encoding = CoordinateEncoding::none;
  std::span<const std::uint16_t> halves;
  std::span<const std::uint32_t> words;
  std::size_t size() const { return encoding == CoordinateEncoding::bf16 ? halves.size() : words.size(); }
  // Coordinate `i`'s word, widened: the width decode_coordinate takes and MotFile keeps.
  std::uint32_t word(std::size_t i) const { return encoding == CoordinateEncoding::bf16 ? halves[i] : words[i]; }
};

// The bone's key times, read in one run and then checked: finite, within range, in time order.
// A failing key is read again the checked way for read_time's exact error.
void read_key_times(const ByteReader& in, std::uint64_t times_at, std::span<float> times) {
  in.read_array(times_at, BE, times);
  float previous = 0.0F;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const float time = times[k];
    if (!(std::fabs(time) <= kMaxSeconds)) [[unlikely]] {  // also false for NaN
      read_time(in, times_at + 4 * k, "a key time");
      assert(false && "read_time refuses what the test above refused");
    }
    // Keys are in time order (GNTool writes them so; the model's rule).
    if (k > 0 && time < previous) [[unlikely]]
      fail_at(times_at + 4 * k, fmt::format("a key time at or after the previous key's {}", previous),
              fmt::format("{}", time));
    previous = time;
  }
}

// Whether a bf16 or float32 word is a NaN or an infinity: all of its exponent bits set. Tested on
// the words, so no value is decoded to check.
template <typename Word>
bool not_finite(Word word) {
  static_assert(std::is_same_v<Word, std::uint16_t> || std::is_same_v<Word, std::uint32_t>, "a bf16 or float32 word");
  constexpr Word exponent = sizeof(Word) == 2 ? 0x7F80u : 0x7F800000u;
  return (word & exponent) == exponent;
}

// Whether any word is not finite, tested 8 bytes (four bf16 or two float32 words) at a time: in
// each lane the exponent bits are masked and flipped, so a lane is 0 exactly when they were all set;
// adding 0x7FFF (0x7FFFFFFF) then sets a lane's top bit exactly when the lane is not 0, without a
// carry into the next lane (a flipped exponent is at most 0x7F80, 0x7F800000). GCC 12 at -O2 does
// not vectorise the word-by-word loop: this takes four (bf16) or two (float32) times fewer steps.
template <typename Word>
bool any_not_finite(std::span<const Word> words) {
  constexpr auto lanes = [](std::uint64_t lane) {
    std::uint64_t all = 0;
    for (std::size_t i = 0; i < 8 / sizeof(Word); ++i) all |= lane << (8 * sizeof(Word) * i);
    return all;
  };
  constexpr std::uint64_t exponent = lanes(sizeof(Word) == 2 ? 0x7F80u : 0x7F800000u);
  constexpr std::uint64_t below_top = lanes(sizeof(Word) == 2 ? 0x7FFFu : 0x7FFFFFFFu);
  constexpr std::uint64_t top = lanes(sizeof(Word) == 2 ? 0x8000u : 0x80000000u);
  constexpr std::size_t per_step = 8 / sizeof(Word);
  bool any = false;
  std::size_t i = 0;
  for (; i + per_step <= words.size(); i += per_step) {
    std::uint64_t packed;
    std::memcpy(&packed, words.data() + i, sizeof packed);
    const std::uint64_t flipped = (packed & exponent) ^ exponent;
    any |= ((flipped + below_top) & top) != top;
  }
  // Words past the last whole step: none for GNT (four words a key), kept for any other count.
  for (; i < words.size(); ++i) any |= not_finite(words[i]);
  return any;
}

// `count` coordinate words from `coords_at`, as stored, checked finite (a NaN or infinite
// coordinate has no SQL value and no meaning in a pose): one branch-free pass, and the first bad
// word looked for only when there is one.
template <typename Word>
std::span<const Word> read_coordinate_words(const ByteReader& in, std::uint64_t coords_at, std::size_t count,
                                            CoordinateEncoding encoding, ScratchRun<Word>& scratch) {
  const std::span<Word> words = scratch.sized(count);
  in.read_array(coords_at, BE, words);
  if (any_not_finite(std::span<const Word>(words))) [[unlikely]] {
    const auto bad = std::find_if(words.begin(), words.end(), [](Word word) { return not_finite(word); });
    fail_at(coords_at + static_cast<std::uint64_t>(bad - words.begin()) * sizeof(Word), "a finite coordinate",
            fmt::format("{} (word {})", decode_coordinate(*bad, encoding), hex(*bad)));
  }
  return words;
}

StoredCoordinates read_coordinates(const ByteReader& in, std::uint64_t coords_at, std::size_t count,
                                   CoordinateEncoding encoding, KeyScratch& scratch) {
  StoredCoordinates stored{encoding, {}, {}};
  if (encoding == CoordinateEncoding::bf16)
    stored.halves = read_coordinate_words(in, coords_at, count, encoding, scratch.halves);
  else
    stored.words = read_coordinate_words(in, coords_at, count, encoding, scratch.words);
  return stored;
}

template <typename Sink>
void walk_bone(const ByteReader& in, const Extent& gnta, std::uint64_t header_at, std::uint64_t data_start,
               KeyScratch& scratch, Sink& sink) {
  const BoneHeader bone = read_bone_header(in, header_at);
  const std::uint64_t key_count = bone.key_count;
  // Time values: K x f32, inside this GNTA's data area (after the bone headers).
  const std::uint64_t times_at = gnta.begin + bone.time_offset;
  const std::uint64_t times_end = times_at + 4 * key_count;
  if (times_at < data_start || times_end > gnta.end)
    fail_at(header_at + 0x10,
            fmt::format("time values ({} keys) inside the GNTA data area {}..{}", key_count, hex(data_start),
                        hex(gnta.end)),
            fmt::format("time offset {} (absolute {})", hex(bone.time_offset), hex(times_at)));
  // Each key becomes its scratch (a time and four stored words) and a model key:
  // charged before any is held.
  charge_parse_memory(key_count, model::kBytesPerKey + kScratchBytesPerKey, header_at + 0x06, "key counts");
  const std::span<float> times = scratch.times.sized(key_count);
  read_key_times(in, times_at, times);
  sink.bone(bone);
  sink.times(times);
  const std::uint64_t times_padded = std::min(align16(times_end), gnta.end);
  const auto after_times = in.slice(times_end, times_padded - times_end);
  if (bone.encoding == CoordinateEncoding::none) return sink.bone_padding(after_times, {});

  // Coordinates must follow the padded times directly (GNTool: "Second animation values do not follow first").
  const std::uint64_t expected_coordinates = align16(bone.time_offset + 4 * key_count);
  if (bone.coordinates_offset != expected_coordinates)
    fail_at(header_at + 0x14, fmt::format("coordinates offset {} (right after the padded key times)",
                                          hex(expected_coordinates)),
            hex(bone.coordinates_offset));
  const std::uint64_t bytes_per_key = bone.encoding == CoordinateEncoding::bf16 ? 8 : 16;
  const std::uint64_t coords_at = gnta.begin + bone.coordinates_offset;
  const std::uint64_t coords_end = coords_at + bytes_per_key * key_count;
  if (coords_end > gnta.end)
    fail_at(header_at + 0x14,
            fmt::format("{} coordinate bytes ({} keys) inside the GNTA ending at {}", bytes_per_key * key_count,
                        key_count, hex(gnta.end)),
            fmt::format("a block ending at {}", hex(coords_end)));
  sink.coordinates(read_coordinates(in, coords_at, 4 * key_count, bone.encoding, scratch));
  sink.bone_padding(after_times, in.slice(coords_end, std::min(align16(coords_end), gnta.end) - coords_end));
}

template <typename Sink>
void walk_gnta(const ByteReader& in, std::uint32_t animation_id, const Extent& gnta, KeyScratch& scratch,
               Sink& sink) {
  if (gnta.size() < kGntaHeaderSize)
    fail_at(gnta.begin, "a 16-byte GNTA header", fmt::format("{} bytes before the next animation", gnta.size()));
  GntaHeader header;
  header.animation_id = animation_id;
  header.file_offset = static_cast<std::uint32_t>(gnta.begin);
  header.header_word0 = in.u16be(gnta.begin);
  header.bone_count = in.u16be(gnta.begin + 2);
  const auto header_size = in.u32be(gnta.begin + 4);
  if (header_size != kGntaHeaderSize) fail_at(gnta.begin + 4, "GNTA header size 0x10", hex(header_size));
  header.play_speed = in.finite_f32(gnta.begin + 8, BE, "the play speed");
  header.end_time = read_time(in, gnta.begin + 12, "the end time");

  const std::uint64_t data_start = gnta.begin + kGntaHeaderSize + kBoneHeaderSize * header.bone_count;
  if (data_start > gnta.end)
    fail_at(gnta.begin + 2,
            fmt::format("{} bone headers (0x20 bytes each) inside the GNTA ending at {}", header.bone_count,
                        hex(gnta.end)),
            fmt::format("headers ending at {}", hex(data_start)));
  sink.animation(header);
  for (std::uint64_t i = 0; i < header.bone_count; ++i)
    walk_bone(in, gnta, gnta.begin + kGntaHeaderSize + kBoneHeaderSize * i, data_start, scratch, sink);
}

template <typename Sink>
void walk_mot(std::span<const std::byte> bytes, Sink& sink) {
  const ByteReader in(bytes);
  const std::uint64_t size = bytes.size();
  if (size < kMotHeaderSize) fail_at(0, "a 16-byte MOT header", fmt::format("a {}-byte file", size));
  require_zero_word(in, 0x00, "MOT header word 0x00");

  const std::uint32_t slot_count = in.u32be(0x04);
  if (slot_count == 0) fail_at(0x04, "at least one animation slot", "0");
  const auto header_size = in.u32be(0x08);
  if (header_size != kMotHeaderSize) fail_at(0x08, "MOT header size 0x10", hex(header_size));
  const std::uint32_t declared_size = in.u32be(0x0C);
  if (declared_size != size)
    fail_at(0x0C, fmt::format("the file size {} ({} bytes)", hex(size), size), hex(declared_size));
  const std::uint64_t table_end = kMotHeaderSize + 4ULL * slot_count;
  if (table_end > size)
    fail_at(0x04, fmt::format("a slot table of {} entries inside the {}-byte file", slot_count, size),
            fmt::format("a table ending at {}", hex(table_end)));
  const std::uint64_t first_data = align16(table_end);

  // Slot offsets: past the table, inside the file, 16-aligned, each used once.
  std::map<std::uint64_t, std::uint32_t> id_by_offset;
  for (std::uint32_t slot = 0; slot < slot_count; ++slot) {
    const std::uint64_t entry_at = kMotHeaderSize + 4ULL * slot;
    const std::uint64_t offset = in.u32be(entry_at);
    if (offset == 0) continue;
    if (offset < first_data || offset >= size || offset % 16 != 0)
      fail_at(entry_at,
              fmt::format("slot {} offset 16-aligned, at or after {} and before the end {}", slot, hex(first_data),
                          hex(size)),
              hex(offset));
    const auto [existing, inserted] = id_by_offset.emplace(offset, slot);
    if (!inserted)
      fail_at(entry_at, fmt::format("a distinct offset for slot {}", slot),
              fmt::format("{}, already used by slot {}", hex(offset), existing->second));
  }
  sink.file(slot_count, declared_size, in.slice(table_end, std::min(first_data, size) - table_end),
            id_by_offset.size());
  KeyScratch scratch;
  for (auto it = id_by_offset.begin(); it != id_by_offset.end(); ++it) {
    const auto next = std::next(it);
    walk_gnta(in, it->second, Extent{it->first, next == id_by_offset.end() ? size : next->first}, scratch, sink);
  }
  sink.finish();
}

// The file's own structs, byte for byte (padding included): what the writer rebuilds files from.
class MotSink {
 public:
  void file(std::uint32_t slot_count, std::uint32_t declared_size, std::span<const std::byte> table_padding,
            std::size_t animation_count) {
    mot_.slot_count = slot_count;
    mot_.declared_size = declared_size;
    mot_.table_padding.assign(table_padding.begin(), table_padding.end());
    mot_.animations.reserve(animation_count);
  }
  void animation(const GntaHeader& header) {
    auto& animation = mot_.animations.emplace_back();
    animation.animation_id = header.animation_id;
    animation.file_offset = header.file_offset;
    animation.header_word0 = header.header_word0;
    animation.play_speed = header.play_speed;
    animation.end_time = header.end_time;
    animation.bones.reserve(header.bone_count);
  }
  void bone(const BoneHeader& header) {
    auto& bone = mot_.animations.back().bones.emplace_back();
    bone.flags1 = header.flags1;
    bone.track_flags = header.track_flags;
    bone.bone_id = header.bone_id;
    bone.total_time = header.total_time;
    bone.time_offset = header.time_offset;
    bone.coordinates_offset = header.coordinates_offset;
    bone.key_times.reserve(header.key_count);
    if (header.encoding != CoordinateEncoding::none) bone.coordinate_words.reserve(header.key_count);
  }
  void times(std::span<const float> seconds) { current().key_times.assign(seconds.begin(), seconds.end()); }
  void coordinates(const StoredCoordinates& stored) {
    auto& kept = current().coordinate_words;
    for (std::size_t at = 0; at + 4 <= stored.size(); at += 4)
      kept.push_back({stored.word(at), stored.word(at + 1), stored.word(at + 2), stored.word(at + 3)});
  }
  void bone_padding(std::span<const std::byte> after_times, std::span<const std::byte> after_coordinates) {
    current().junk_after_times.assign(after_times.begin(), after_times.end());
    current().junk_after_coordinates.assign(after_coordinates.begin(), after_coordinates.end());
  }
  void finish() {
    std::sort(mot_.animations.begin(), mot_.animations.end(),
              [](const GntAnimation& a, const GntAnimation& b) { return a.animation_id < b.animation_id; });
  }
  MotFile take() { return std::move(mot_); }

 private:
  BoneAnimation& current() { return mot_.animations.back().bones.back(); }
  MotFile mot_;
};

// The common model, decoded as the bytes are read: each key's time, frame and values go straight
// into the track's columns, which come from one arena for the file.
class ModelSink {
 public:
  // A track's columns take about four times its bytes in the file (six 8-byte words a key, from a
  // 4-byte time and 8 bytes of bf16 values), so the arena's first chunk is sized for that, capped:
  // a larger file's arena grows by chunks as its tracks arrive.
  explicit ModelSink(std::size_t file_size) : arena_(model::make_column_arena(std::min(4 * file_size, kMaxFirstChunk))) {}

  void file(std::uint32_t slot_count, std::uint32_t declared_size, std::span<const std::byte>,
            std::size_t animation_count) {
    slot_count_ = slot_count;
    declared_size_ = declared_size;
    file_.animations.reserve(animation_count);
  }
  void animation(const GntaHeader& header) {
    file_.animations.push_back(model_animation(header.animation_id, header.play_speed, header.end_time));
    file_.animations.back().tracks.reserve(header.bone_count);
  }
  void bone(const BoneHeader& header) {
    auto& track = file_.animations.back().tracks.emplace_back();
    set_track_fields(track, header.bone_id, header.flags1, header.track_flags, header.total_time);
    const bool values = header.encoding != CoordinateEncoding::none;
    // Left unfilled: times() writes the times and frames next, and coordinates() every value, or
    // the walk throws and the file's model is dropped unread. (A debug build fills them with NaN
    // first, so a word left unwritten fails validate() and the tests that compare both paths.)
    auto& keys = track.keys = model::KeyColumns(header.key_count,
                                                model::KeyColumns::kFrame | (values ? model::KeyColumns::kXYZW : 0),
                                                arena_, model::ColumnFill::by_caller);
    keys_ = &keys;
  }
  void times(std::span<const float> seconds) {
    const auto times = keys_->time();
    const auto frames = keys_->frame();
    for (std::size_t k = 0; k < seconds.size(); ++k) {
      times[k] = seconds[k];
      frames[k] = seconds_to_frame(seconds[k]);
    }
  }
  // Each word decoded once, straight into its column: the encoding is tested once a column, not
  // once a word.
  void coordinates(const StoredCoordinates& stored) {
    assert(stored.size() == 4 * keys_->size() && "every value column is written whole");
    for (std::size_t v = 0; v < 4; ++v) {
      const auto column = keys_->value(v);
      if (stored.encoding == CoordinateEncoding::bf16)
        for (std::size_t k = 0; k < column.size(); ++k) column[k] = decode_bf16(stored.halves[4 * k + v]);
      else
        for (std::size_t k = 0; k < column.size(); ++k) column[k] = std::bit_cast<float>(stored.words[4 * k + v]);
    }
  }
  void bone_padding(std::span<const std::byte>, std::span<const std::byte>) {}
  void finish() {
    std::sort(file_.animations.begin(), file_.animations.end(),
              [](const model::Animation& a, const model::Animation& b) { return *a.slot < *b.slot; });
    file_.properties = file_properties(slot_count_, declared_size_, file_.animations.size());
  }
  model::AnimationFile take() { return std::move(file_); }

 private:
  static constexpr std::size_t kMaxFirstChunk = std::size_t{4} << 20;
  std::shared_ptr<model::ColumnArena> arena_;
  model::AnimationFile file_;
  model::KeyColumns* keys_ = nullptr;  // the current track's columns, sized by bone()
  std::uint32_t slot_count_ = 0;
  std::uint32_t declared_size_ = 0;
};

}  // namespace

Result<MotFile> parse_mot(std::span<const std::byte> bytes) {
  return catch_parse_failure<MotFile>([&] {
    MotSink sink;
    walk_mot(bytes, sink);
    return sink.take();
  });
}

Result<model::AnimationFile> parse_mot_model(std::span<const std::byte> bytes) {
  return catch_parse_failure<model::AnimationFile>([&] {
    ModelSink sink(bytes.size());
    walk_mot(bytes, sink);
    return sink.take();
  });
}

}  // namespace animdex::gnt_mot
