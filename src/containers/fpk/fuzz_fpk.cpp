// Fuzzes the FPK reader: any input lists or fails cleanly with an offset inside it; every listed
// member lies inside the input, has a unique non-empty path and a consistent compression; members
// under 1 MiB decode or fail cleanly. Archives whose members all decode are rewritten with the
// writer and must list and decode to the same bytes again.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "containers/fpk/fpk_container.h"
#include "containers/fpk/fpk_writer.h"

using namespace animdex;

namespace {

constexpr std::uint64_t kMaxDecoded = 1u << 20;       // per member, as the brief asks
constexpr std::uint64_t kMaxRoundTripBytes = 1u << 20;  // all members, so one run stays fast

template <typename T>
void require_clean_error(const Result<T>& result, std::uint64_t input_size) {
  if (result.error().expected.empty() || result.error().offset > input_size) __builtin_trap();
}

void check_members(const MemorySource& source, const MemberList& list) {
  std::unordered_set<std::string> paths;
  if (list.warnings.size() > 2 * 17 + 1) __builtin_trap();  // capped per kind, whatever the table repeats
  for (const auto& member : list.members) {
    if (member.path.empty() || !paths.insert(member.path).second) __builtin_trap();
    if (member.error) {  // a broken entry is an error of its own, at a field inside the input
      if (member.error->expected.empty() || member.error->offset > source.size()) __builtin_trap();
      continue;
    }
    if (!source.contains(member.offset, member.stored_size)) __builtin_trap();
    if ((member.compression == nullptr) != (member.stored_size == member.size)) __builtin_trap();
  }
}

// The plain bytes of every member, or nothing when one does not decode or they are too large.
std::vector<fpk::FpkInput> decode_members(std::span<const std::byte> bytes, const MemberList& list) {
  std::vector<fpk::FpkInput> plain;
  std::uint64_t total = 0;
  bool complete = true;
  for (const auto& member : list.members) {
    if (member.error) {
      complete = false;
      continue;
    }
    const auto stored = bytes.subspan(member.offset, member.stored_size);
    if (member.compression == nullptr) {
      plain.push_back({member.path, {stored.begin(), stored.end()}, false});
    } else if (member.size < kMaxDecoded) {
      auto decoded = fpk::prs_decompress(stored, member.size);
      if (!decoded.ok()) {
        require_clean_error(decoded, stored.size());
        complete = false;
        continue;
      }
      if (decoded.value().size() != member.size) __builtin_trap();
      plain.push_back({member.path, std::move(decoded.value()), true});
    } else {
      complete = false;
      continue;
    }
    total += plain.back().bytes.size();
    if (total > kMaxRoundTripBytes) complete = false;
  }
  if (!complete) plain.clear();
  return plain;
}

void round_trip(const std::vector<fpk::FpkInput>& plain) {
  const auto written = fpk::write_fpk(plain);
  const MemorySource source{std::span<const std::byte>(written)};
  const auto relisted = fpk::list_fpk(ContainerInput{source, source, "rewritten.fpk"}, ContainerLimits{});
  if (!relisted.ok() || relisted.value().members.size() != plain.size()) __builtin_trap();
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const auto& member = relisted.value().members[i];
    const auto stored = std::span<const std::byte>(written).subspan(member.offset, member.stored_size);
    const auto decoded = member.compression == nullptr
                             ? Result<std::vector<std::byte>>(std::vector<std::byte>(stored.begin(), stored.end()))
                             : fpk::prs_decompress(stored, member.size);
    if (!decoded.ok() || decoded.value() != plain[i].bytes) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const MemorySource source{bytes};
  (void)fpk::detect_fpk(bytes, size);
  const auto listed = fpk::list_fpk(ContainerInput{source, source, "fuzz.fpk"}, ContainerLimits{});
  if (!listed.ok()) {
    require_clean_error(listed, size);
    return 0;
  }
  check_members(source, listed.value());
  const auto plain = decode_members(bytes, listed.value());
  if (!plain.empty()) round_trip(plain);
  return 0;
}
