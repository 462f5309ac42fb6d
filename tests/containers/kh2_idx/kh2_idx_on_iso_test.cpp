// KH2.IDX and KH2.IMG as ordinary ISO9660 files (containers.md sections 4 and 5): the disc lists,
// the pair is found by stem case-insensitively, and the IDX lists against the IMG as ranges of the
// disc. Needs the iso9660 folder too: scripts/container-check.sh iso9660 kh2_idx.
#include <catch2/catch.hpp>

#include <cctype>
#include <memory>
#include <string>

#include "containers/iso9660/iso9660_container.h"
#include "containers/iso9660/iso9660_writer.h"
#include "containers/iso9660/sparse_source.h"
#include "containers/kh2_idx/kh2_compression.h"
#include "containers/kh2_idx/kh2_idx_container.h"
#include "containers/kh2_idx/kh2_idx_writer.h"

using namespace animdex;
using Bytes = std::vector<std::byte>;

TEST_CASE("KH2.IDX/KH2.IMG inside an ISO9660 image", "[kh2_idx][iso9660]") {
  Bytes motion(40000);
  for (std::size_t i = 0; i < motion.size(); ++i) motion[i] = static_cast<std::byte>((i * 7) % 13);
  const kh2_idx::Kh2Image kh2 = kh2_idx::build_kh2_idx_img(
      {{"obj/P_EX100.mset", motion, true}, {"00battle.bin", Bytes(3000, std::byte{5})}});
  const Bytes disc = iso9660::build_iso9660({{"SYSTEM.CNF", Bytes(40, std::byte{' '})},
                                             {"KH2.IDX", kh2.idx},
                                             {"KH2.IMG", kh2.img},
                                             {"MOVIE/OPN.PSS", Bytes(5000, std::byte{7})}});
  const auto image = std::make_shared<test::SparseSource>(disc);
  auto listed = iso9660::list_iso9660({*image, *image, "kh2.iso"}, {});
  REQUIRE(listed.ok());
  const Member* idx = nullptr;
  const Member* img = nullptr;
  for (const auto& member : listed.value().members) {
    if (member.path == "KH2.IDX") idx = &member;
    std::string lowered = member.path;  // the framework pairs KH2.IDX with kh2.img case-insensitively
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered == "kh2.img") img = &member;
  }
  REQUIRE(idx != nullptr);
  REQUIRE(img != nullptr);
  CHECK(idx->stored_name == "KH2.IDX;1");

  const RangeSource idx_bytes(image, idx->offset, idx->size);
  const RangeSource img_bytes(image, img->offset, img->size);
  const Bytes idx_head = idx_bytes.read_vector(0, idx_bytes.size());
  CHECK(kh2_idx::detect_kh2_idx(idx_head, idx_bytes.size()));
  const std::uint64_t read_before = image->bytes_read;
  auto entries = kh2_idx::list_kh2_idx({idx_bytes, img_bytes, "KH2.IDX"}, {});
  REQUIRE(entries.ok());
  CHECK(image->bytes_read - read_before == kh2.idx.size());  // only the IDX
  REQUIRE(entries.value().members.size() == 2);
  for (const auto& member : entries.value().members) {
    if (member.path != "obj/P_EX100.mset") continue;
    CHECK(member.compression == &kh2_idx::kKh2Codec);
    const Bytes stored = img_bytes.read_vector(member.offset, member.stored_size);
    auto decoded = kh2_idx::kh2_decompress(stored, member.size);
    REQUIRE(decoded.ok());
    CHECK(decoded.value() == motion);
  }
}
