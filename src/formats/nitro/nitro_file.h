#pragma once
// What every NitroSystem G3D file shares (nitro-models-and-anims.md "Conventions"): the 16-byte
// file header, block headers, resource dictionaries and the 4-byte animation header. The readers
// check the note's rules and fail at the offending field; they never read outside the block.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_reader.h"

namespace animdex::nitro {

inline double fx(std::int64_t raw) { return static_cast<double>(raw) / 4096.0; }

// The first block of a file, absolute [start, end).
struct Block {
  std::uint64_t start = 0, end = 0;
};

// What the header check of one kind expects.
struct HeaderRules {
  std::string_view file_magic, block_magic;
  std::uint16_t usual_version = 1;
  // BCA0 reads only its first block: it bounds that block's size alone, after its magic and in its
  // own words, and warns about the others. Its errors are in stored rows and tests, so they keep
  // their text; the other kinds bound every block as they find it.
  bool first_block_only = false;
};

struct FileHeader {
  std::uint16_t version = 0;
  Block first;
};

// Checks magic, byte-order mark, header size, declared size and the blocks' ranges, and returns
// the first block, which must carry `block_magic` (a model's TEX0 block is not read). A version
// other than `usual_version` is a warning.
FileHeader read_file_header(const ByteReader& in, const HeaderRules& rules, std::vector<std::string>& warnings);

inline Block read_first_block(const ByteReader& in, std::string_view file_magic, std::string_view block_magic,
                              std::uint16_t usual_version, std::vector<std::string>& warnings) {
  return read_file_header(in, {file_magic, block_magic, usual_version}, warnings).first;
}

// The error of a range outside its block: "WHAT (N bytes at X) inside the BLOCK ending at E".
[[noreturn]] void fail_outside(std::uint64_t start, std::uint64_t length, std::uint64_t end, std::uint64_t field_at,
                               std::string_view what, std::string_view block = "block");

// Fails unless [start, start+length) lies inside [.., end); `field_at` is the field that pointed there.
inline void require_inside(std::uint64_t start, std::uint64_t length, std::uint64_t end, std::uint64_t field_at,
                           std::string_view what, std::string_view block = "block") {
  if (start > end || length > end - start) fail_outside(start, length, end, field_at, what, block);
}

struct DictionaryEntry {
  std::string name;   // up to 16 bytes, NUL padding removed, non-printable bytes shown as '?'
  std::uint64_t data = 0;  // absolute position of the entry's `unit_size` bytes of data
};

// A resource dictionary at absolute `at`, entirely before `end`: revision 0, entry header right after
// the tree, `unit_size` bytes of data per entry, 16-byte names, and the size invariant. `located_at`
// is where the offset that led to `at` was read: a dictionary outside the block is an error there,
// at a byte of the file (a bogus offset can point far past its end; fuzz_nitro finding).
std::vector<DictionaryEntry> read_dictionary(const ByteReader& in, std::uint64_t at, std::uint64_t end,
                                             std::uint16_t unit_size, std::size_t min_entries,
                                             std::string_view what, std::uint64_t located_at);

// BCA0's dictionary as nsbca.md checks it (it predates the family's note): the tree, data (unit 4)
// and names need only lie inside JNT0, and its errors keep their words ("at least one dictionary
// entry", "dictionary data size 4 (JNT0)") for the stored rows and tests that carry them.
std::vector<DictionaryEntry> read_bca0_dictionary(const ByteReader& in, const Block& jnt0);

std::string read_name16(const ByteReader& in, std::uint64_t at);

// An animation's 4-byte header (`M\0AT`, ...) and numFrame >= 1 at absolute `at`; returns numFrame.
std::uint16_t read_animation_header(const ByteReader& in, std::uint64_t at, std::uint64_t end,
                                    std::string_view header, std::uint64_t field_at, std::string_view what);

// The animations of a one-block animation file: the set dictionary (unit 4, offsets from the
// block start, at least one entry), each entry's header checked and its absolute start returned.
struct AnimationEntry {
  std::string name;
  std::uint64_t start = 0;      // absolute: the header's first byte
  std::uint16_t frame_count = 0;
};
std::vector<AnimationEntry> read_animation_set(const ByteReader& in, const Block& block, std::string_view header);

}  // namespace animdex::nitro
