#pragma once
// One budget per walked file (issue 35): every member listed, every byte decompressed (peeks for
// detection included) and every compressed container held open, across all the containers nested
// in that file, are charged to one ContainerBudget. `index` makes one per walked file and `ls` one
// per listing, so both stop at the same figures. The caps grow with the file's size, so a small
// file that nests itself cannot make work or memory out of proportion to its bytes: time stays
// linear in the input and memory under the fixed caps (ContainerLimits).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "containers/container.h"
#include "containers/member_bytes.h"
#include "core/parse_error.h"

namespace animdex {

class ContainerBudget {
 public:
  // Members a file may list in all, besides one per kInputBytesPerMember of its size: the smallest
  // member table entry is 8 bytes (NARC FAT, NDS FAT), so any one level of a real table fits.
  static constexpr std::uint64_t kMemberFloor = 10'000;
  static constexpr std::uint64_t kInputBytesPerMember = 8;
  // Decompressed bytes a file may make in all, besides kDecompressionRatio per byte of its size.
  static constexpr std::uint64_t kDecompressedFloor = 256ULL << 20;
  static constexpr std::uint64_t kDecompressionRatio = 64;

  // `input_size`: the walked file's size on disk.
  ContainerBudget(const ContainerLimits& limits, std::uint64_t input_size);

  const ContainerLimits& limits() const { return limits_; }
  std::uint64_t max_members() const { return max_members_; }
  std::uint64_t max_decompressed() const { return tally_->limit; }

  // Charges `count` members listed in `where` (a path, for the message). The error (nothing is
  // charged) names the cap and the figures when they do not fit.
  std::optional<ParseError> charge_members(std::uint64_t count, std::string_view where);
  // Charges a compressed container of `bytes` held open while its members are walked; release()
  // gives them back once it is closed.
  std::optional<ParseError> hold(std::uint64_t bytes);
  void release(std::uint64_t bytes) { held_ -= bytes; }

  // Decompression is charged by open_member, maybe on other threads after the walk has moved on:
  // members being decoded share this tally (it outlives the budget).
  const std::shared_ptr<DecompressionTally>& tally() const { return tally_; }
  DecompressionTally& decompressed() { return *tally_; }

  std::uint64_t members() const { return members_; }
  std::uint64_t held() const { return held_; }

 private:
  ContainerLimits limits_;
  std::uint64_t input_size_;
  std::uint64_t max_members_;
  std::uint64_t members_ = 0;
  std::uint64_t held_ = 0;
  std::shared_ptr<DecompressionTally> tally_;
};

}  // namespace animdex
