#include "formats/kh2/kh2_motion_set.h"

#include <fmt/format.h>
#include <map>
#include <utility>

#include "core/byte_reader.h"

namespace animdex::kh2 {

namespace {

constexpr int kFallbackOrder[4][4] = {{0, 1, 3, 2}, {1, 0, 2, 3}, {2, 3, 1, 0}, {3, 2, 0, 1}};

// Re-raises an error found inside a nested buffer at its absolute offset, saying where it was.
template <typename T>
T value_or_rethrow(Result<T> result, std::uint64_t base, const std::string& context) {
  if (!result) {
    const auto& error = result.error();
    fail_at(base + error.offset, context.empty() ? error.expected : context + ": " + error.expected, error.found);
  }
  return std::move(result).value();
}

std::string slot_path(const std::optional<std::int64_t>& parent_slot, std::int64_t slot) {
  return parent_slot ? fmt::format("slot {}/{}", *parent_slot, slot) : fmt::format("slot {}", slot);
}

// Resource bounds against hostile nesting (README "Reliability"): real files never come near them.
// Entry tables of nested BARs could overlap and multiply the slot count, and overlapping ANBs could
// make every slot parse the same large motion again.
class Walker {
 public:
  Walker(KH2File& out, std::uint64_t file_size)
      : out_(out), slot_budget_(file_size / kBarEntrySize + 1), motion_byte_budget_(2 * file_size) {}

  // A BAR of slots. `bytes` runs from the BAR's start to the end of its parent container, so an
  // entry may overrun its declared size (kh2-mset.md "What the real files show").
  void read_bar(std::span<const std::byte> bytes, std::uint64_t base, std::optional<std::int64_t> parent_slot,
                int depth, bool motion_set) {
    if (depth > kMaxBarDepth)
      fail_at(base, fmt::format("BARs nested at most {} deep", kMaxBarDepth), fmt::format("depth {}", depth));
    const std::string where = parent_slot ? fmt::format("nested set in slot {}", *parent_slot) : std::string();
    Bar bar = value_or_rethrow(parse_bar(bytes), base, where);
    for (auto& warning : bar.warnings) warn(where.empty() ? warning : where + ": " + warning);
    std::optional<SetType> set_type;
    if (motion_set) {
      const int low_bits = bar.set_type_field & 0x3;
      if (low_bits == 3)
        fail_at(base + 0x0C, "motion set type 0 (Default), 1 (Player) or 2 (Raw)", std::to_string(low_bits));
      set_type = static_cast<SetType>(low_bits);
      if (!parent_slot) {
        out_.set_type = set_type;
        out_.set_type_field = bar.set_type_field;
      }
    }
    const bool grouped = set_type && *set_type != SetType::default_set;
    std::vector<std::size_t> own_slots;  // positions in out_.slots (nested sets' slots interleave)
    std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> first_with_data;
    for (std::size_t index = 0; index < bar.entries.size(); ++index) {
      const auto& entry = bar.entries[index];
      Slot slot;
      slot.parent_slot = parent_slot;
      slot.slot = static_cast<std::int64_t>(index);
      slot.entry = entry;
      slot.data_offset = base + static_cast<std::uint64_t>(std::max(entry.offset, 0));
      slot.is_dummy = !entry.has_data();
      slot.set_type = set_type;
      if (set_type) {
        slot.motion_id = grouped ? slot.slot / 4 : slot.slot;
        if (grouped) slot.state = slot.slot % 4;
      }
      if (entry.has_data()) {
        // The duplicate flag is unreliable; shared data is recognised by (offset, size) (NOTES.md).
        const auto [found, inserted] = first_with_data.try_emplace({entry.offset, entry.size}, slot.slot);
        if (!inserted) {
          slot.duplicate_of = found->second;
          slot.motion_index = out_.slots[own_slots[static_cast<std::size_t>(found->second)]].motion_index;
        }
      }
      if (out_.slots.size() >= slot_budget_)
        fail_at(base + kBarHeaderSize + kBarEntrySize * index,
                fmt::format("at most {} slots in all (one per 16 bytes of the file)", slot_budget_),
                "overlapping entry tables");
      own_slots.push_back(out_.slots.size());
      out_.slots.push_back(slot);
      if (slot.is_dummy || slot.duplicate_of) continue;
      read_entry(bytes, base, out_.slots.size() - 1, depth);
    }
    if (set_type) add_resolutions(own_slots, parent_slot, *set_type);
  }

  // A bare ANB, or one inside a slot. Returns the index of its motion in out_.motions, if it has one.
  std::optional<std::size_t> read_anb(std::span<const std::byte> bytes, std::uint64_t base, std::uint64_t declared_size,
                                      const std::string& where, int depth, const Slot* slot) {
    if (depth > kMaxBarDepth)
      fail_at(base, fmt::format("BARs nested at most {} deep", kMaxBarDepth), fmt::format("depth {}", depth));
    if (!has_bar_magic(bytes))
      fail_at(base, where.empty() ? "ANB starting with \"BAR\"" : where + ": ANB starting with \"BAR\"",
              bytes.size() >= 3 ? ByteReader(bytes).ascii(0, 3) : "too short");
    Bar anb = value_or_rethrow(parse_bar(bytes), base, where.empty() ? "ANB" : where + " ANB");
    const auto prefix = [&](std::string text) { return where.empty() ? text : where + ": " + text; };
    for (auto& warning : anb.warnings) warn(prefix("ANB " + warning));
    int motion_entries = 0, trigger_entries = 0;
    std::uint64_t data_end = 0;
    const BarEntry* motion_entry = nullptr;
    for (const auto& entry : anb.entries) {
      if (entry.type == kTypeMotion) {
        ++motion_entries;
        if (!motion_entry) motion_entry = &entry;
      } else if (entry.type == kTypeMotionTriggers) {
        ++trigger_entries;
      }
      if (entry.has_data()) data_end = std::max<std::uint64_t>(data_end, std::uint64_t(entry.offset) + entry.size);
    }
    if (anb.entries.size() != 2 || motion_entries != 1 || trigger_entries != 1)
      warn(prefix(fmt::format("ANB holds {} entries ({} Motion, {} MotionTriggers), not exactly one of each",
                              anb.entries.size(), motion_entries, trigger_entries)));
    if (data_end > declared_size)
      warn(prefix(fmt::format("ANB data runs {} bytes past the slot's size {} (into the padding after it)",
                              data_end - declared_size, declared_size)));
    if (!motion_entry || !motion_entry->has_data()) return std::nullopt;  // a real slot with no motion
    const std::uint64_t motion_at = base + static_cast<std::uint64_t>(motion_entry->offset);
    Motion motion = value_or_rethrow(parse_motion(entry_payload(bytes, *motion_entry)), motion_at,
                                     prefix("Motion"));
    return add_motion(std::move(motion), motion_at, slot, motion_entry->name, where,
                      static_cast<std::uint64_t>(motion_entry->size));
  }

  std::optional<std::size_t> add_motion(Motion motion, std::uint64_t offset, const Slot* slot, const std::string& name,
                                        const std::string& where, std::uint64_t motion_size) {
    motion_bytes_ += motion_size;
    if (motion_bytes_ > motion_byte_budget_)
      fail_at(offset, fmt::format("motions holding at most {} bytes in all (twice the file)", motion_byte_budget_),
              "overlapping motions");
    for (auto& warning : motion.warnings) warn(where.empty() ? "Motion: " + warning : where + " Motion: " + warning);
    motion.warnings.clear();
    SlotMotion added;
    added.motion = std::move(motion);
    added.offset = offset;
    added.entry_name = name;
    if (slot) {
      added.parent_slot = slot->parent_slot;
      added.slot = slot->slot;
      added.motion_id = slot->motion_id;
      added.state = slot->state;
      added.entry_name = slot->entry.name;
    }
    out_.motions.push_back(std::move(added));
    return out_.motions.size() - 1;
  }

 private:
  void read_entry(std::span<const std::byte> bytes, std::uint64_t base, std::size_t slot_index, int depth) {
    const Slot slot = out_.slots[slot_index];
    const std::string where = slot_path(slot.parent_slot, slot.slot);
    const auto offset = static_cast<std::size_t>(slot.entry.offset);
    // Data read from the same absolute offset is the same (an entry is bounded by its parent, not
    // its size), so it is read once whatever size the entry declares.
    const auto [seen, first_time] = read_at_.try_emplace({base + offset, slot.entry.type}, slot_index);
    if (!first_time) {
      out_.slots[slot_index].motion_index = out_.slots[seen->second].motion_index;
      return;
    }
    switch (slot.entry.type) {
      case kTypeAnb:
        out_.slots[slot_index].motion_index = read_anb(bytes.subspan(offset), base + offset,
                                                        static_cast<std::uint64_t>(slot.entry.size), where, depth + 1,
                                                        &slot);
        break;
      case kTypeMotionset:
        if (slot.parent_slot) {  // slot paths have one parent level; deeper sets are listed, not followed
          warn(where + ": a motion set inside a nested motion set is listed but not indexed");
          break;
        }
        read_bar(bytes.subspan(offset), base + offset, slot.slot, depth + 1, true);
        break;
      case kTypeMotion: {
        Motion motion = value_or_rethrow(parse_motion(entry_payload(bytes, slot.entry)), base + offset,
                                         where + " Motion");
        out_.slots[slot_index].motion_index = add_motion(std::move(motion), base + offset, &slot, slot.entry.name, where,
                                                         static_cast<std::uint64_t>(slot.entry.size));
        break;
      }
      default:
        if (slot.set_type)
          warn(fmt::format("{}: entry type {} ({}) is not an Anb or Motionset", where, slot.entry.type,
                           entry_type_name(slot.entry.type)));
    }
  }

  void add_resolutions(const std::vector<std::size_t>& own_slots, std::optional<std::int64_t> parent_slot,
                       SetType type) {
    std::vector<bool> is_real;
    for (const std::size_t s : own_slots) is_real.push_back(!out_.slots[s].is_dummy);
    const bool grouped = type != SetType::default_set;
    const std::int64_t motion_count =
        grouped ? (static_cast<std::int64_t>(is_real.size()) + 3) / 4 : static_cast<std::int64_t>(is_real.size());
    for (std::int64_t motion_id = 0; motion_id < motion_count; ++motion_id) {
      if (!grouped) {
        out_.resolutions.push_back({parent_slot, motion_id, std::nullopt, resolve_slot(is_real, type, motion_id, 0)});
        continue;
      }
      for (int state = 0; state < 4; ++state)
        out_.resolutions.push_back({parent_slot, motion_id, state, resolve_slot(is_real, type, motion_id, state)});
    }
  }

  void warn(std::string message) { out_.warnings.push_back(std::move(message)); }

  KH2File& out_;
  std::uint64_t slot_budget_, motion_byte_budget_;
  std::uint64_t motion_bytes_ = 0;
  std::map<std::pair<std::uint64_t, std::uint16_t>, std::size_t> read_at_;  // (offset, type) -> first slot
};

template <typename Body>
Result<KH2File> walk(std::uint64_t file_size, Body&& body) {
  return catch_parse_failure<KH2File>([&] {
    KH2File file;
    Walker walker(file, file_size);
    body(walker, file);
    return file;
  });
}

}  // namespace

std::int64_t resolve_slot(const std::vector<bool>& is_real, SetType type, std::int64_t motion_id, int state) {
  const auto real = [&](std::int64_t slot) {
    return slot >= 0 && slot < static_cast<std::int64_t>(is_real.size()) && is_real[static_cast<std::size_t>(slot)];
  };
  if (type == SetType::default_set) return real(motion_id) ? motion_id : -1;
  if (state < 0 || state > 3) return -1;
  for (const int candidate : kFallbackOrder[state])
    if (real(motion_id * 4 + candidate)) return motion_id * 4 + candidate;
  return -1;
}

Result<KH2File> parse_motion_set(std::span<const std::byte> bytes) {
  return walk(bytes.size(), [&](Walker& walker, KH2File&) { walker.read_bar(bytes, 0, std::nullopt, 1, true); });
}

Result<KH2File> parse_anb(std::span<const std::byte> bytes) {
  return walk(bytes.size(), [&](Walker& walker, KH2File&) { walker.read_anb(bytes, 0, bytes.size(), "", 1, nullptr); });
}

Result<KH2File> parse_plain_bar(std::span<const std::byte> bytes) {
  return walk(bytes.size(), [&](Walker& walker, KH2File&) { walker.read_bar(bytes, 0, std::nullopt, 1, false); });
}

}  // namespace animdex::kh2
