#pragma once
// The one place that maps parsed models to table rows: names from the reference data,
// content hashes, file status. Everything the writer inserts is decided here.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_buffer.h"
#include "core/parse_budget.h"
#include "indexer/walker.h"
#include "core/content_hash.h"
#include "model/animation.h"
#include "reference/reference_data.h"

namespace animdex {

struct TrackRow {
  std::int64_t key_count = 0;  // bone_tracks.key_count: kept here, as the model's keys may be released
  std::optional<std::string> bone_name;
  HexDigest content_hash;
  // bone_tracks.keys, encoded in the parallel stage (KeyStorage::blob): bytes [begin, end) of its
  // FileRow's key_blobs; empty when not encoded.
  std::size_t keys_begin = 0;
  std::size_t keys_end = 0;
  double total_time = 0.0;  // bone_tracks.total_time as stored (as_stored): worked out here, not by the writer
};

struct AnimationRow {
  std::optional<std::string> name;
  std::int64_t key_count = 0;
  std::string content_hash;
  std::string shape_hash;  // structure only: bones, channels, key times (near-identical animations)
  std::vector<TrackRow> tracks;  // parallel to the model animation's tracks
};

// How a dump stores its keys (dumps.keyframe_storage, `index --keyframes`).
enum class KeyStorage {
  blob,  // one packed BLOB per track (bone_tracks.keys): the default
  rows,  // a row per key in keyframe_rows and key_spline_rows (the layout before schema v9)
  none,  // tracks, counts and hashes only
};
std::string_view key_storage_name(KeyStorage storage);  // "blob", "rows", "none"
std::optional<KeyStorage> parse_key_storage(std::string_view name);

// Whether a re-index can keep a file's rows from the previous dump of the label.
enum class Reuse {
  none,               // parse and insert
  unchanged_stat,     // same size and modification time: not even read
  unchanged_content,  // different time, same content hash: not parsed; only size/mtime are updated
};

// What became of a file, as files.status stores it: parsed; a known format that failed to parse,
// or a file that could not be read; or not an animation file (with why in `error`).
enum class FileStatus { ok, error, unknown };
std::string_view status_name(FileStatus status);               // "ok", "error", "unknown"
std::optional<FileStatus> parse_status(std::string_view name);

struct FileRow {
  Reuse reuse = Reuse::none;
  std::string path;
  std::optional<std::string> character;
  std::string format = "unknown";
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::optional<std::string> content_hash;
  FileStatus status = FileStatus::unknown;
  std::optional<std::string> error;
  std::optional<std::uint64_t> error_offset;
  std::optional<double> parse_ms;  // time spent detecting and parsing, when the file was parsed
  model::AnimationFile model;
  std::vector<AnimationRow> animations;  // parallel to model.animations
  ByteBuffer key_blobs;                  // every track's blob, end to end (one buffer, not one per track)

  // A member of a container (files.parent_id and the columns after it); empty for a walked file.
  std::string parent_path;  // the enclosing container's path
  std::optional<std::string> member_name;
  std::optional<std::uint64_t> member_offset;
  std::optional<std::uint64_t> stored_size;
  std::optional<std::string> compression;
  std::optional<std::string> stored_hash;  // a member its container stores compressed: hash of the stored bytes
  // A container: its listing's warnings (to scan_warnings) and, when unchanged since the label's
  // last dump (Reuse::unchanged_stat), that all its members' rows are kept without reading it.
  std::vector<std::string> warnings;
  bool keep_members = false;

  std::span<const std::byte> keys_blob(const TrackRow& track) const {
    return std::span<const std::byte>(key_blobs).subspan(track.keys_begin, track.keys_end - track.keys_begin);
  }
};

// Files larger than this are detected from their head but not parsed: 16 MiB, six times the
// largest real animation file we know (a 2.5 MB KH2 motion set); --max-file-size raises it.
inline constexpr std::uint64_t kDefaultMaxFileSize = 16ULL << 20;

struct ProcessOptions {
  std::uint64_t max_file_size = kDefaultMaxFileSize;  // larger files are detected, not parsed
  std::chrono::milliseconds parse_time_limit{30'000};  // a parse running longer fails with an error
  std::uint64_t parse_budget = kDefaultParseBudget;    // bytes one file may decode to (core/parse_budget.h)
  KeyStorage key_storage = KeyStorage::blob;            // blob: each track's blob is encoded with its rows
  // The index pipeline's rows go only to the writer, which needs no key columns in the blob and none
  // layouts: they are released once hashed and encoded, here in the parallel stage, so files waiting
  // for the writer hold less and the single writer does not spend its time freeing them.
  bool release_encoded_keys = false;
};

// What a file's rows hold in memory, roughly: its keys as the model holds them (until the parallel
// stage releases them) and as blobs, each track's and animation's fixed part, and its format rows.
// The index pipeline charges waiting files with it (flight_budget.h), and the writer sizes its
// batches by it.
std::uint64_t held_bytes(const FileRow& file);

// read -> detect -> parse -> rows for one walked file. Never throws for bad input.
// With `unchanged_hash`, a file whose content hash equals it is not parsed (Reuse::unchanged_content).
FileRow process_file(const WalkEntry& entry, const ReferenceData& reference, const ProcessOptions& options,
                     const std::optional<std::string>& unchanged_hash = std::nullopt);

// detect -> parse -> rows for bytes already read (a file, or a container's member): `bytes` is the
// whole content, or only its head when `size` is over options.max_file_size (then it is detected,
// not parsed). Never throws for bad input.
void process_bytes(FileRow& row, std::span<const std::byte> bytes, std::uint64_t size, const ReferenceData& reference,
                   const ProcessOptions& options, const std::optional<std::string>& unchanged_hash = std::nullopt);

// The folder after a 'chr' component (GNT character code), or the name of a KH2 obj/<NAME>.mset, or
// of a <NAME>.mset elsewhere when `reference` knows NAME as a KH2 object in any case (a modder's
// folder of sets; the code as the object table spells it).
std::optional<std::string> character_from_path(const std::string& relative_path,
                                               const ReferenceData* reference = nullptr);

// Hashes of decoded content: equal content gives equal hashes wherever it sits in a file.
HexDigest track_content_hash(const model::BoneTrack& track);
// `described_by`: the format rows that describe this animation (FormatRow::animation).
std::string animation_content_hash(const model::Animation& animation, const std::vector<TrackRow>& tracks,
                                   const std::vector<const model::FormatRow*>& described_by);
std::string animation_shape_hash(const model::Animation& animation);

}  // namespace animdex
