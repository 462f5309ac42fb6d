#pragma once
// The members of the 9 real NARCs under ../shared/corpus/real/containers (nitro-models-and-anims.md
// section 9: 454 members), opened as the indexer opens them: NARC listing, then open_member, which
// decompresses the LZ11 members. For the Nitro kinds' real-file tests (BMD0 and the animations).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "containers/container_test_support.h"
#include "containers/lz/lz.h"
#include "containers/member_bytes.h"
#include "containers/narc/narc_container.h"
#include "detect/identify.h"

namespace animdex::test {

struct RealNitroMember {
  std::string archive;  // relative to corpus/real/containers, e.g. "pret__pokeheartgold/files/a/2/4/6"
  std::size_t index = 0;  // member index in the NARC
  std::string address;  // archive/index, as `animdex pose` addresses a member
  bool lz11 = false;    // stored LZ11-compressed
  std::vector<std::byte> bytes;  // decompressed

  std::string_view magic() const {
    return bytes.size() < 4 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(bytes.data()), 4);
  }
};

// The 9 archives (corpus/real/SOURCES.md, "Containers").
inline const std::vector<std::string>& real_nitro_archives() {
  static const std::vector<std::string> archives = {
      "pret__pokeheartgold/files/a/2/4/3", "pret__pokeheartgold/files/a/2/4/4",
      "pret__pokeheartgold/files/a/2/4/6", "pret__pokeheartgold/files/a/1/3/4",
      "pret__pokeheartgold/files/a/1/0/6", "pret__pokeheartgold/files/a/0/9/4",
      "pret__pokeplatinum/res/prebuilt/graphic/hiden_effect.narc",
      "pret__pokeplatinum/res/prebuilt/arc/ship_demo.narc",
      "pret__pokeplatinum/res/prebuilt/arc/ship_demo_pl.narc",
  };
  return archives;
}

namespace detail {

inline std::vector<RealNitroMember> load_real_nitro_members(const std::filesystem::path& root) {
  std::vector<RealNitroMember> members;
  for (const auto& archive : real_nitro_archives()) {
    auto data = std::make_shared<MemorySource>(file_bytes(root / archive));
    const auto listed = narc::list_narc({*data, *data, archive}, ContainerLimits{});
    REQUIRE(listed.ok());
    DecompressionTally tally(ContainerLimits{}.max_total_decompressed);
    for (std::size_t i = 0; i < listed.value().members.size(); ++i) {
      const auto opened = open_member(data, listed.value().members[i], ContainerLimits{}, tally, known_content);
      REQUIRE(opened.ok());
      const auto& source = *opened.value().bytes;
      members.push_back({archive, i, archive + "/" + std::to_string(i), opened.value().compression == &lz::kLz11Codec,
                         source.read_vector(0, source.size())});
    }
  }
  return members;
}

}  // namespace detail

// Every member of the 9 archives, loaded once per test run; nullopt when ../shared is absent (the
// caller WARNs that its real-file checks are skipped).
inline const std::optional<std::vector<RealNitroMember>>& real_nitro_members() {
  static const std::optional<std::vector<RealNitroMember>> members =
      []() -> std::optional<std::vector<RealNitroMember>> {
    const auto shared = shared_dir();
    if (!shared) return std::nullopt;
    return detail::load_real_nitro_members(*shared / "corpus" / "real" / "containers");
  }();
  return members;
}

// The members whose (decompressed) bytes start with `magic`, e.g. "BTA0".
inline std::vector<const RealNitroMember*> real_members_with_magic(std::string_view magic) {
  std::vector<const RealNitroMember*> found;
  if (const auto& members = real_nitro_members())
    for (const auto& member : *members)
      if (member.magic() == magic) found.push_back(&member);
  return found;
}

// The member at `address` ("ARCHIVE/INDEX"); nullptr when absent.
inline const RealNitroMember* real_member_at(std::string_view address) {
  if (const auto& members = real_nitro_members())
    for (const auto& member : *members)
      if (member.address == address) return &member;
  return nullptr;
}

}  // namespace animdex::test
