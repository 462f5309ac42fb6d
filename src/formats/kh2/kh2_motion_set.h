#pragma once
// Motion sets (.mset), ANBs and other BARs as a flat list of slots and the distinct motions they
// hold (kh2-mset.md "MSET layout", "Slot mapping"). Nested BARs are followed to a fixed depth.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_motion.h"

namespace animdex::kh2 {

// mset -> nested motion set -> ANB -> Motion: deeper BAR nesting is refused (hostile input).
inline constexpr int kMaxBarDepth = 4;

enum class SetType { default_set = 0, player = 1, raw = 2 };

// One entry of a BAR, at the top level or inside a nested motion set.
struct Slot {
  std::optional<std::int64_t> parent_slot;  // the type-20 slot it sits in; empty at the top level
  std::int64_t slot = 0;                    // position in its BAR
  BarEntry entry;
  std::uint64_t data_offset = 0;            // absolute in the file
  bool is_dummy = false;                    // size 0 (the engine's test)
  std::optional<std::int64_t> duplicate_of; // earlier slot of the same BAR with the same (offset, size)
  std::optional<SetType> set_type;          // of the BAR it sits in; empty for a plain (non-motion-set) BAR
  std::optional<std::int64_t> motion_id, state;
  std::optional<std::size_t> motion_index;  // into KH2File::motions
};

// A distinct motion (shared data is listed once), with the first slot that holds it.
struct SlotMotion {
  Motion motion;
  std::optional<std::int64_t> parent_slot, slot, motion_id, state;
  std::string entry_name;
  std::uint64_t offset = 0;  // absolute offset of the Motion entry
};

struct Resolution {
  std::optional<std::int64_t> parent_slot;
  std::int64_t motion_id = 0;
  std::optional<std::int64_t> state;  // empty for Default sets
  std::int64_t resolved_slot = -1;    // -1: every candidate is a dummy (T-pose)
};

struct KH2File {
  std::optional<SetType> set_type;  // top-level motion set type
  std::int32_t set_type_field = 0;
  std::vector<Slot> slots;
  std::vector<SlotMotion> motions;
  std::vector<Resolution> resolutions;
  std::vector<std::string> warnings;
};

// Which slot the engine plays for (motion_id, state) (MotionSet.cs GetMotionSetIndex): Player and
// Raw sets map slot = motion_id*4 + state and fall back 0->1->3->2, 1->0->2->3, 2->3->1->0,
// 3->2->0->1; Default sets map slot = motion_id. `is_real[slot]` is false for dummies; slots past
// the end count as dummies. Returns -1 when nothing real is found.
std::int64_t resolve_slot(const std::vector<bool>& is_real, SetType type, std::int64_t motion_id, int state);

// Whole files. Errors name absolute offsets and the slot path they were found under.
Result<KH2File> parse_motion_set(std::span<const std::byte> bytes);  // .mset: a BAR of slots
Result<KH2File> parse_anb(std::span<const std::byte> bytes);         // a bare ANB
Result<KH2File> parse_plain_bar(std::span<const std::byte> bytes);   // any other BAR: entries listed

}  // namespace animdex::kh2
