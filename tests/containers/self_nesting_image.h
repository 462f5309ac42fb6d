#pragma once
// A GameCube image whose `copies` files are each the whole image: every level lists the image
// again, so members grow as copies^depth (issue 35: a 12 KB one with 6 copies lists 2,015,538 rows
// to ContainerLimits::max_depth). Built at test time with the project's own writer.
#include <cstddef>
#include <string>
#include <vector>

#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_writer.h"

namespace animdex::test {

inline std::vector<std::byte> self_nesting_image(int copies) {
  std::vector<gcm::GcmFile> files;
  for (int i = 0; i < copies; ++i) files.push_back({"f" + std::to_string(i), std::vector<std::byte>(32, std::byte{1})});
  auto disc = gcm::build_gcm(files);
  auto get = [&](std::size_t at) {
    return (std::to_integer<std::size_t>(disc[at]) << 24) | (std::to_integer<std::size_t>(disc[at + 1]) << 16) |
           (std::to_integer<std::size_t>(disc[at + 2]) << 8) | std::to_integer<std::size_t>(disc[at + 3]);
  };
  auto put = [&](std::size_t at, std::size_t value) {
    for (int i = 0; i < 4; ++i) disc[at + i] = static_cast<std::byte>((value >> (24 - 8 * i)) & 0xFF);
  };
  const std::size_t fst = get(gcm::kFstOffsetField);
  for (int i = 1; i <= copies; ++i) {
    put(fst + 12 * i + 4, 0);
    put(fst + 12 * i + 8, disc.size());
  }
  return disc;
}

}  // namespace animdex::test
