#include "indexer/scan_rows.h"

#include <fmt/format.h>

#include "containers/container_registry.h"
#include "core/content_hash.h"
#include "formats/format.h"
#include "detect/identify.h"

namespace animdex {

namespace {

void record_error(FileRow& row, const ParseError& error) {
  row.status = FileStatus::error;
  row.error = error.message();
  row.error_offset = error.offset;
}

void describe_member(FileRow& row, const ScanItem& item) {
  if (!item.member) return;
  if (item.depth == 0) {  // a whole file stored compressed: how, and its size on disk
    row.stored_size = item.member->stored_size;
    row.compression = std::string(compression_name(item.compression));
    return;
  }
  row.parent_path = item.parent_path;
  row.member_name = item.member->stored_name;
  row.member_offset = item.member->offset;
  row.stored_size = item.member->stored_size;
  row.compression = std::string(compression_name(item.compression));
}

// A container's own row: its format, whether its table could be listed, and (when it is small
// enough to read, like any file) the hash of its stored bytes.
FileRow container_row(const ScanItem& item, const ProcessOptions& options) {
  FileRow row;
  row.path = item.path;
  row.character = character_from_path(item.path);
  row.format = std::string(item.container->id);
  row.size = item.size;
  row.mtime_ns = item.mtime_ns;
  describe_member(row, item);
  row.warnings = item.warnings;
  if (item.container_error) {
    record_error(row, *item.container_error);
    return row;
  }
  row.status = FileStatus::ok;
  if (item.container_bytes && item.container_bytes->size() <= options.max_file_size) {
    try {
      row.content_hash = hash_bytes(item.container_bytes->read_vector(0, item.container_bytes->size()));
    } catch (const ParseFailure& failure) {
      record_error(row, failure.error());
    }
  }
  return row;
}

// The hash a re-index compares before decompressing (files.stored_hash): of a member its container
// stores compressed, up to --max-file-size, taken by the queue already when it checked. A whole
// file compressed (depth 0, found in a folder) is known unchanged by its size and time instead.
std::optional<std::string> stored_hash_of(const ScanItem& item, const ProcessOptions& options) {
  const Member& member = *item.member;
  if (item.depth == 0 || !member.compression || member.stored_size > options.max_file_size) return std::nullopt;
  if (item.stored_hash) return item.stored_hash;
  return hash_range(*item.parent_data, member.offset, member.stored_size).text();
}

// A compressed member whose stored bytes are the last dump's (ScanQueue checked): its rows are kept.
FileRow kept_member_row(const ScanItem& item) {
  FileRow row;
  row.reuse = Reuse::unchanged_content;
  row.path = item.path;
  row.mtime_ns = item.mtime_ns;
  row.size = item.member->size;
  row.stored_hash = item.stored_hash;
  describe_member(row, item);
  return row;
}

FileRow member_row(const ScanItem& item, const ReferenceData& reference, const ProcessOptions& options,
                   const ContainerLimits& limits, const std::optional<std::string>& unchanged_hash) {
  FileRow row;
  row.path = item.path;
  row.character = character_from_path(item.path, &reference);
  row.mtime_ns = item.mtime_ns;
  row.size = item.member->size;
  row.warnings = item.warnings;
  describe_member(row, item);
  if (item.open_error) {
    record_error(row, *item.open_error);
    return row;
  }
  // The member's content size is known once opened; over the limit, only its head is decoded.
  const std::uint64_t head = item.size > options.max_file_size ? kDetectBytes : UINT64_MAX;
  const auto opened = item.decoded ? Result<OpenedMember>(OpenedMember{item.decoded, item.compression, item.size, false})
                                   : open_member(item.parent_data, *item.member, limits, *item.tally, known_content, head);
  if (!opened.ok()) {
    record_error(row, opened.error());
    return row;
  }
  try {
    row.stored_hash = stored_hash_of(item, options);
    const auto& source = *opened.value().bytes;
    const std::uint64_t wanted = std::min<std::uint64_t>(source.size(), head == UINT64_MAX ? options.max_file_size : kDetectBytes);
    // A decompressed member is already in memory: parsed in place, not copied.
    if (const auto* memory = dynamic_cast<const MemorySource*>(&source)) {
      process_bytes(row, memory->bytes().first(static_cast<std::size_t>(wanted)), opened.value().size, reference, options,
                    unchanged_hash);
    } else {
      const auto bytes = source.read_vector(0, wanted);
      process_bytes(row, bytes, opened.value().size, reference, options, unchanged_hash);
    }
  } catch (const std::exception& error) {  // the image shrank or could not be read
    record_error(row, dynamic_cast<const ParseFailure*>(&error) ? dynamic_cast<const ParseFailure*>(&error)->error()
                                                                 : ParseError{0, "readable member bytes", error.what()});
  }
  return row;
}

// A container's data file (KH2.IMG): its contents are the container's members, so it is recorded
// with its own format and not parsed (nor hashed: it is the size of a disc).
FileRow companion_row(const ScanItem& item) {
  FileRow row;
  row.path = item.path;
  row.format = std::string(item.companion_of->companion_format);
  row.size = item.size;
  row.mtime_ns = item.mtime_ns;
  row.status = FileStatus::ok;
  row.warnings = item.warnings;
  describe_member(row, item);
  return row;
}

}  // namespace

FileRow process_scan_item(const ScanItem& item, const WalkEntry& entry, const ReferenceData& reference,
                          const ProcessOptions& options, const ContainerLimits& limits,
                          const std::optional<std::string>& unchanged_hash) {
  if (item.companion_of) return companion_row(item);
  if (item.container) return container_row(item, options);
  if (item.member && item.unchanged_stored) return kept_member_row(item);
  if (item.member) return member_row(item, reference, options, limits, unchanged_hash);
  return process_file(entry, reference, options, unchanged_hash);
}

}  // namespace animdex
