// Fuzzes the CISO view and listing. Input starting "CISO" is a CISO: it opens or fails cleanly
// with an offset inside it; a few ranges of the view read (across blocks, at the end); its
// listing gives files inside the view or fails with an offset inside the view. Any other input is
// taken as a disc: build_ciso of it must view back to the same bytes and list as the disc does.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "containers/byte_source.h"
#include "containers/ciso/ciso_container.h"
#include "containers/ciso/ciso_writer.h"
#include "containers/gcm/gcm_container.h"
#include "core/parse_error.h"

using namespace animdex;

namespace {

void read_some_ranges(const ciso::CisoSource& view, std::uint32_t block_size) {
  std::vector<std::byte> buffer(96);
  const std::uint64_t starts[] = {0, block_size - 48, 3ULL * block_size - 1, view.size() - buffer.size()};
  for (std::uint64_t start : starts) try {
    view.read(start, buffer);
  } catch (const ParseFailure& failure) {  // only a file cut short may fail, at a block it lacks
    if (view.complete_blocks() == view.present_blocks() || !view.cut_in(start, buffer.size())) __builtin_trap();
    if (failure.error().expected.empty()) __builtin_trap();
  }
  try {
    view.read(view.size() - 1, buffer);  // past the end: a clean ParseFailure
    __builtin_trap();
  } catch (const ParseFailure& failure) {
    if (failure.error().expected.empty()) __builtin_trap();
  }
}

void list_view(const ByteSource& view) {
  const auto listed = ciso::list_ciso(ContainerInput{view, view, "fuzz.ciso"}, ContainerLimits{});
  if (!listed.ok()) {
    if (listed.error().expected.empty() || listed.error().offset > view.size()) __builtin_trap();
    return;
  }
  std::byte head[64];
  for (const Member& member : listed.value().members) {
    if (member.error) continue;  // a file in the blocks a cut-short CISO lacks: its own error
    if (!view.contains(member.offset, member.size)) __builtin_trap();
    view.read(member.offset, std::span(head, static_cast<std::size_t>(std::min<std::uint64_t>(member.size, 64))));
  }
}

void fuzz_raw_ciso(std::span<const std::byte> bytes) {
  const auto view = ciso::open_ciso(std::make_shared<const MemorySource>(bytes));
  if (!view.ok()) {
    if (view.error().expected.empty() || view.error().offset > bytes.size()) __builtin_trap();
    return;
  }
  const auto& ciso = static_cast<const ciso::CisoSource&>(*view.value());
  read_some_ranges(ciso, ciso.block_size());
  list_view(*view.value());
}

std::vector<std::pair<std::string, std::uint64_t>> non_empty(const MemberList& listing) {
  std::vector<std::pair<std::string, std::uint64_t>> members;
  for (const Member& member : listing.members)
    if (member.size != 0) members.emplace_back(member.path, member.offset);
  return members;
}

void fuzz_round_trip(std::span<const std::byte> disc) {
  const std::vector<std::byte> ciso_bytes = ciso::build_ciso(disc);
  const auto view = ciso::open_ciso(std::make_shared<const MemorySource>(ciso_bytes));
  if (!view.ok()) __builtin_trap();
  if (view.value()->read_vector(0, disc.size()) != std::vector<std::byte>(disc.begin(), disc.end())) __builtin_trap();
  const MemorySource plain(disc);
  const auto from_plain = gcm::list_gcm(ContainerInput{plain, plain, "disc"}, ContainerLimits{});
  const auto from_view = ciso::list_ciso(ContainerInput{*view.value(), *view.value(), "disc"}, ContainerLimits{});
  // The view is longer than the disc (the map's whole span): a disc that lists lists the same
  // through the view, except empty files named past the disc's end, which only the view holds.
  if (!from_plain.ok()) return;
  if (!from_view.ok()) __builtin_trap();
  if (non_empty(from_view.value()) != non_empty(from_plain.value())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const bool is_ciso = size >= 4 && data[0] == 'C' && data[1] == 'I' && data[2] == 'S' && data[3] == 'O';
  if (is_ciso) fuzz_raw_ciso(bytes);
  else if (size <= (1u << 20)) fuzz_round_trip(bytes);
  return 0;
}
