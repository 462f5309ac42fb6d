#include "indexer/rows.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <new>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include <fmt/format.h>

#include "containers/container_registry.h"
#include "containers/listing.h"
#include "core/content_hash.h"
#include "core/number_text.h"
#include "core/text.h"
#include "core/parse_budget.h"
#include "core/parse_deadline.h"
#include "db/key_blob.h"
#include "model/validate.h"
#include "formats/registry.h"
#include "indexer/file_reader.h"

namespace animdex {

namespace {

void add_optional(ContentHasher& hasher, const std::optional<double>& value) {
  hasher.add_u64(value.has_value());
  if (value) hasher.add_f64(*value);
}

void add_optional(ContentHasher& hasher, const std::optional<std::int64_t>& value) {
  hasher.add_u64(value.has_value());
  if (value) hasher.add_i64(*value);
}

std::string file_stem(const std::string& path) {
  const auto slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// The name reference data gives a motion ID in this format's game: a purpose (GNT), else a
// motion name in the code numbering (KH2).
std::optional<std::string> motion_label(const ReferenceData& reference, std::string_view game, std::int64_t motion_id) {
  if (game.empty()) return std::nullopt;
  auto name = reference.purpose(game, motion_id);
  return name ? name : reference.motion_name(game, "code", motion_id);
}

// Format rows carry motion IDs whose names come from reference data: resolved here, in the
// parallel stage, so the writer and `info` see plain values.
void resolve_names(std::vector<model::FormatRow>& rows, std::string_view game, const ReferenceData& reference) {
  for (auto& row : rows)
    for (auto& [column, value] : row.columns)
      if (const auto* motion = std::get_if<model::MotionNameOf>(&value)) {
        const auto name = motion_label(reference, game, motion->motion_id);
        value = name ? model::RowValue(*name) : model::RowValue();
      }
}

// The file's blobs are packed end to end in one buffer: sized once for what they usually take, so it
// is not moved again at every doubling (that, with the zero-filling ByteBuffer now avoids, was a
// third of the encoder's time).
// Within the model's charge already (model::kBytesPerKey a key); a file that needs more grows it.
void reserve_key_blobs(FileRow& row) {
  constexpr std::size_t kUsualBytesPerKey = 16, kUsualBytesPerTrack = 16;  // bench corpus: GNT 8-9, KH2 15
  std::size_t bytes = 0;
  for (const auto& animation : row.model.animations)
    for (const auto& track : animation.tracks) bytes += kUsualBytesPerTrack + kUsualBytesPerKey * track.keys.size();
  row.key_blobs.reserve(bytes);
}

void build_rows(FileRow& row, std::string_view game, const ReferenceData& reference, const ProcessOptions& options) {
  const KeyStorage storage = options.key_storage;
  const bool release = options.release_encoded_keys && storage != KeyStorage::rows;
  resolve_names(row.model.format_rows, game, reference);
  std::vector<std::vector<const model::FormatRow*>> described(row.model.animations.size());
  for (const auto& format_row : row.model.format_rows)
    if (format_row.animation) described[*format_row.animation].push_back(&format_row);
  if (storage == KeyStorage::blob) reserve_key_blobs(row);
  row.animations.reserve(row.model.animations.size());
  // A file's tracks name the same few bones over and over: each is looked up once.
  std::unordered_map<std::int64_t, std::optional<std::string>> bone_names;
  const auto bone_name = [&](std::int64_t bone_id) -> const std::optional<std::string>& {
    auto [at, inserted] = bone_names.try_emplace(bone_id);
    if (inserted) at->second = reference.bone_name(game, bone_id);
    return at->second;
  };
  for (std::size_t a = 0; a < row.model.animations.size(); ++a) {
    const auto& animation = row.model.animations[a];
    AnimationRow animation_row;
    if (!animation.name.empty()) animation_row.name = animation.name;
    else if (animation.motion_id) animation_row.name = motion_label(reference, game, *animation.motion_id);
    // A file's only animation, with no ID of its own (LightWave, Kuper), is named after the file.
    else if (row.model.animations.size() == 1) animation_row.name = file_stem(row.path);
    animation_row.tracks.reserve(animation.tracks.size());
    for (auto& track : row.model.animations[a].tracks) {
      TrackRow track_row;
      track_row.key_count = static_cast<std::int64_t>(track.keys.size());
      if (track.bone_id && !game.empty()) track_row.bone_name = bone_name(*track.bone_id);
      const bool float32 = model::float32_values(track.value_encoding);
      track_row.total_time = float32 ? as_stored(track.total_time) : track.total_time;
      if (!track_row.bone_name && !track.node_name.empty()) track_row.bone_name = track.node_name;
      track_row.content_hash = track_content_hash(track);
      if (storage == KeyStorage::blob) {
        track_row.keys_begin = row.key_blobs.size();
        const std::size_t size = model::append_key_blob(row.key_blobs, track.keys, track.splines);
        track_row.keys_end = track_row.keys_begin + size;
        // Held with the file until it is written: counted in its budget like the model.
        charge_parse_memory(size, 1, 0, "the packed keys of its tracks");
      }
      animation_row.key_count += track_row.key_count;
      animation_row.tracks.push_back(std::move(track_row));
    }
    animation_row.content_hash = animation_content_hash(animation, animation_row.tracks, described[a]);
    animation_row.shape_hash = animation_shape_hash(animation);
    row.animations.push_back(std::move(animation_row));
    // Columns from a file's arena (GNT, KH2) give their memory back only with the file's last track,
    // so this lowers the peak only for formats that size columns on the heap; the charge stands either way.
    if (release)
      for (auto& track : row.model.animations[a].tracks) {
        track.keys = {};
        track.splines = {};
      }
  }
}

void fail_row(FileRow& row, std::string message, std::optional<std::uint64_t> offset = std::nullopt) {
  row.status = FileStatus::error;
  row.error = std::move(message);
  row.error_offset = offset;
  row.model = {};
  row.animations.clear();
  row.key_blobs.clear();
}

// Parses under the time limit and the memory budget, checks the model's rules and builds the rows.
// Whatever goes wrong (a parse error, a broken rule, an allocation that fails) is this file's error.
void parse_into(FileRow& row, const FormatModule& format, std::span<const std::byte> bytes,
                const ReferenceData& reference, const ProcessOptions& options) {
  try {
    ScopedParseDeadline deadline(options.parse_time_limit);
    ScopedParseBudget budget(options.parse_budget);
    auto parsed = format.parse(bytes);
    if (!parsed) return fail_row(row, parsed.error().message(), parsed.error().offset);
    row.model = std::move(parsed).value();
    if (auto broken = model::validate(row.model)) return fail_row(row, "parsed model breaks a rule: " + *broken);
    row.status = FileStatus::ok;
    build_rows(row, format.reference_game, reference, options);
  } catch (const ParseFailure& failure) {  // a budget or deadline hit outside a parser's own catch
    fail_row(row, failure.error().message(), failure.error().offset);
  } catch (const std::bad_alloc&) {
    fail_row(row, "out of memory while parsing this file");
  } catch (const std::exception& error) {
    fail_row(row, fmt::format("parse failed: {}", error.what()));
  }
}

std::string describe_unknown(std::span<const std::byte> bytes) {
  if (bytes.empty()) return "no known format: the file is empty";
  std::string head;
  for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 8); ++i)
    head += fmt::format("{}{:02X}", i ? " " : "", static_cast<unsigned>(bytes[i]));
  return fmt::format("no known format: first bytes {}", head);
}

}  // namespace

std::string_view status_name(FileStatus status) {
  switch (status) {
    case FileStatus::ok: return "ok";
    case FileStatus::error: return "error";
    case FileStatus::unknown: return "unknown";
  }
  return "unknown";
}

std::string_view key_storage_name(KeyStorage storage) {
  switch (storage) {
    case KeyStorage::blob: return "blob";
    case KeyStorage::rows: return "rows";
    case KeyStorage::none: return "none";
  }
  return "blob";
}

std::optional<KeyStorage> parse_key_storage(std::string_view name) {
  for (const auto storage : {KeyStorage::blob, KeyStorage::rows, KeyStorage::none})
    if (key_storage_name(storage) == name) return storage;
  return std::nullopt;
}

std::optional<FileStatus> parse_status(std::string_view name) {
  for (const auto status : {FileStatus::ok, FileStatus::error, FileStatus::unknown})
    if (status_name(status) == name) return status;
  return std::nullopt;
}

std::optional<std::string> character_from_path(const std::string& relative_path, const ReferenceData* reference) {
  std::size_t start = 0;
  std::string folder;  // the folder holding the file
  std::optional<std::string> character;  // the innermost: a disc's fpack/chr/nar1000.fpk/chr/nar/0000.mot is nar's
  while (true) {
    const auto slash = relative_path.find('/', start);
    if (slash == std::string::npos) break;  // the last component is the file itself
    std::string component = relative_path.substr(start, slash - start);
    if (folder == "chr" && !component.empty()) character = component;
    folder = std::move(component);
    start = slash + 1;
  }
  // A game that names files after their owner says so through its format (FormatModule's hooks).
  const std::string_view file = std::string_view(relative_path).substr(start);
  for (const auto& format : registered_formats()) {
    if (!format.object_from_file_name) continue;
    const auto object = format.object_from_file_name(file);
    if (!object) continue;
    if (folder == format.object_folder) return std::string(*object);
    if (!character && reference)
      if (auto code = reference->character_code_ignoring_case(std::string(format.reference_game), std::string(*object)))
        return code;
    return character;
  }
  return character;
}

HexDigest track_content_hash(const model::BoneTrack& track) {
  ContentHasher hasher;
  add_optional(hasher, track.bone_id);
  hasher.add_u64(track.flags);
  hasher.add_u64(track.track_flags);
  hasher.add_text(track.channels);
  hasher.add_text(track.value_encoding);
  hasher.add_f64(track.total_time);
  // Key by key (time, frame, x, y, z, w, each optional one with its presence), read from the columns
  // and handed over a key at a time.
  const model::KeyColumns& keys = track.keys;
  hasher.add_u64(keys.size());
  const auto times = keys.time();
  const auto frames = keys.frame();
  const std::array<std::span<const double>, 4> values{keys.x(), keys.y(), keys.z(), keys.w()};
  for (std::size_t k = 0; k < keys.size(); ++k) {
    std::array<std::uint64_t, 11> words;
    std::size_t count = 0;
    words[count++] = std::bit_cast<std::uint64_t>(times[k]);
    words[count++] = !frames.empty();
    if (!frames.empty()) words[count++] = static_cast<std::uint64_t>(frames[k]);
    for (const auto& column : values) {
      words[count++] = !column.empty();
      if (!column.empty()) words[count++] = std::bit_cast<std::uint64_t>(column[k]);
    }
    hasher.add_words(std::span<const std::uint64_t>(words.data(), count));
  }
  hasher.add_u64(track.splines.size());
  const auto& splines = track.splines;
  for (std::size_t k = 0; k < splines.size(); ++k) {
    hasher.add_i64(splines.shape()[k]);
    hasher.add_i64(splines.has_linear_flags() ? splines.linear_flag()[k] : -1);
    // Every parameter, a carried one or 0: the hash is the same as before the columns were.
    for (std::size_t p = 0; p < model::SplineColumns::kMaxParameters; ++p)
      hasher.add_f64(p < splines.parameter_count() ? splines.parameter(p)[k] : 0.0);
  }
  hasher.add_u64(track.behaviors.has_value());
  if (track.behaviors) {
    hasher.add_i64(track.behaviors->pre);
    hasher.add_i64(track.behaviors->post);
  }
  return hasher.digest();
}

static void add_row_value(ContentHasher& hasher, const model::RowValue& value) {
  hasher.add_u64(value.index());
  std::visit([&](const auto& held) {
    using T = std::decay_t<decltype(held)>;
    if constexpr (std::is_same_v<T, std::int64_t>) hasher.add_i64(held);
    else if constexpr (std::is_same_v<T, double>) hasher.add_f64(held);
    else if constexpr (std::is_same_v<T, std::string>) hasher.add_text(held);
    else if constexpr (std::is_same_v<T, model::AnimationRef>) hasher.add_u64(held.animation);
    else if constexpr (std::is_same_v<T, model::MotionNameOf>) hasher.add_i64(held.motion_id);
    else if constexpr (std::is_same_v<T, model::ExactNumber>) hasher.add_f64(held.value);
  }, value);
}

std::string animation_content_hash(const model::Animation& animation, const std::vector<TrackRow>& tracks,
                                   const std::vector<const model::FormatRow*>& described_by) {
  // Slot and motion ID are where the animation sits, not what it is: left out on purpose.
  ContentHasher hasher;
  add_optional(hasher, animation.play_speed);
  add_optional(hasher, animation.end_time);
  add_optional(hasher, animation.frame_count);
  hasher.add_u64(tracks.size());
  for (const auto& track : tracks) hasher.add_text(track.content_hash.view());
  // What the format says only of this animation (KH2 frame data, NSBCA node states) is content too.
  hasher.add_u64(described_by.size());
  for (const auto* row : described_by) {
    hasher.add_text(row->table);
    for (const auto& [column, value] : row->columns) {
      hasher.add_text(column);
      add_row_value(hasher, value);
    }
  }
  return hasher.hex();
}

std::string animation_shape_hash(const model::Animation& animation) {
  ContentHasher hasher;
  hasher.add_u64(animation.tracks.size());
  for (const auto& track : animation.tracks) {
    add_optional(hasher, track.bone_id);
    hasher.add_text(track.channels);
    hasher.add_u64(track.keys.size());
    for (const double time : track.keys.time()) hasher.add_f64(time);
  }
  return hasher.hex();
}

void process_bytes(FileRow& row, std::span<const std::byte> bytes, std::uint64_t size, const ReferenceData& reference,
                   const ProcessOptions& options, const std::optional<std::string>& unchanged_hash) {
  row.size = size;
  const bool too_large = size > options.max_file_size;  // then `bytes` is only the head
  if (!too_large) row.content_hash = hash_bytes(bytes);
  if (unchanged_hash && row.content_hash == unchanged_hash) {
    row.reuse = Reuse::unchanged_content;
    return;
  }
  const FormatModule* format = detect_format(bytes, size);
  if (!format) {  // status unknown: not an animation file, and why
    row.error = describe_unknown(bytes);
    // A file named like a container that is not one: which of its checks failed.
    if (const auto why = why_not_a_container(bytes, size, base_name(row.path)); !why.empty()) *row.error += "; " + why;
    return;
  }
  row.format = std::string(format->id);
  if (too_large) {
    row.status = FileStatus::error;
    row.error = fmt::format("file of {} bytes is over the {}-byte limit (--max-file-size); not parsed", size,
                            options.max_file_size);
    return;
  }
  const auto parse_started = std::chrono::steady_clock::now();
  parse_into(row, *format, bytes, reference, options);
  row.parse_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - parse_started).count();
}

std::uint64_t held_bytes(const FileRow& file) {
  std::uint64_t bytes = file.key_blobs.size();
  for (const auto& animation : file.model.animations) {
    bytes += 512;
    for (const auto& track : animation.tracks)
      bytes += 256 + (track.keys.size() + track.splines.size()) * 6 * sizeof(double);
  }
  for (const auto& row : file.model.format_rows) {  // a KH2 set's slots, one row each
    bytes += sizeof(row) + row.columns.capacity() * sizeof(model::RowColumn);
    for (const auto& column : row.columns)
      if (const auto* text = std::get_if<std::string>(&column.value)) bytes += text->capacity();
  }
  return bytes;
}

FileRow process_file(const WalkEntry& entry, const ReferenceData& reference, const ProcessOptions& options,
                     const std::optional<std::string>& unchanged_hash) {
  FileRow row;
  row.path = entry.relative_path;
  row.character = character_from_path(entry.relative_path, &reference);
  row.size = entry.size;
  row.mtime_ns = entry.mtime_ns;
  if (!entry.error.empty()) {
    row.status = FileStatus::error;
    row.error = entry.error;
    return row;
  }
  // A file over the limit is only detected (from its head), never parsed or held whole.
  const bool too_large = entry.size > options.max_file_size;
  auto file = read_file_bytes(entry.absolute_path, too_large ? kDetectBytes : options.max_file_size);
  if (!file.error.empty()) {  // a FIFO, device or socket stays `unknown` with its type; never read
    row.status = file.not_regular ? FileStatus::unknown : FileStatus::error;
    row.error = file.error;
    return row;
  }
  process_bytes(row, file.bytes, file.file_size, reference, options, unchanged_hash);
  return row;
}

}  // namespace animdex
