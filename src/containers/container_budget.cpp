#include "containers/container_budget.h"

#include <algorithm>
#include <fmt/format.h>

namespace animdex {

namespace {

std::uint64_t scaled(std::uint64_t floor, std::uint64_t input, std::uint64_t per_byte, std::uint64_t ceiling,
                     bool divide) {
  const std::uint64_t extra = divide ? input / per_byte : (input > UINT64_MAX / per_byte ? UINT64_MAX : input * per_byte);
  return std::min(ceiling, floor > UINT64_MAX - extra ? UINT64_MAX : floor + extra);
}

}  // namespace

ContainerBudget::ContainerBudget(const ContainerLimits& limits, std::uint64_t input_size)
    : limits_(limits),
      input_size_(input_size),
      max_members_(scaled(kMemberFloor, input_size, kInputBytesPerMember, limits.max_members, true)),
      tally_(std::make_shared<DecompressionTally>(
          scaled(kDecompressedFloor, input_size, kDecompressionRatio, limits.max_total_decompressed, false))) {}

std::optional<ParseError> ContainerBudget::charge_members(std::uint64_t count, std::string_view where) {
  if (members_ + count > max_members_)
    return ParseError{0,
                      max_members_ == limits_.max_members
                          ? fmt::format("at most {} members in all the containers of one file", max_members_)
                          : fmt::format("at most {} members in all the containers of one file ({} and one per {} "
                                        "bytes of its {})",
                                        max_members_, kMemberFloor, kInputBytesPerMember, input_size_),
                      fmt::format("{} more in {}, after {}", count, where, members_)};
  members_ += count;
  return std::nullopt;
}

std::optional<ParseError> ContainerBudget::hold(std::uint64_t bytes) {
  if (held_ + bytes > limits_.max_held_decompressed)
    return ParseError{0,
                      fmt::format("at most {} bytes of compressed containers open at once in one file",
                                  limits_.max_held_decompressed),
                      fmt::format("{} more for this one, after {}", bytes, held_)};
  held_ += bytes;
  return std::nullopt;
}

}  // namespace animdex
