#pragma once
// The corrupt-container tests' one preamble: list a crafted archive held in memory, then expect the
// whole listing to fail (the rule's text and the field's offset), or expect one broken table entry
// to become a member carrying its own error while the archive and its other members list intact.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "containers/byte_source.h"
#include "containers/container.h"
#include "support/corrupt_input.h"

namespace animdex::test {

using ListMembers = Result<MemberList> (*)(const ContainerInput&, const ContainerLimits&);

struct CorruptContainer {
  ListMembers list_members;  // the container's list function, e.g. fpk::list_fpk
  std::string file_name;     // what the container is called in its messages

  Result<MemberList> list(const Bytes& bytes, const ContainerLimits& limits = {}) const {
    const MemorySource source{std::span<const std::byte>(bytes)};
    return list_members(ContainerInput{source, source, file_name}, limits);
  }

  void expect_error(const Bytes& bytes, const std::string& text, std::uint64_t offset,
                    const ContainerLimits& limits = {}) const {
    expect_parse_error(list(bytes, limits), text, offset);
  }

  // Only member `index` of `member_count` carries an error, with `text` and `offset`.
  void expect_member_error(const Bytes& bytes, std::size_t member_count, std::size_t index, const std::string& text,
                           std::uint64_t offset, const ContainerLimits& limits = {}) const {
    const auto listed = list(bytes, limits);
    REQUIRE(listed.ok());
    const auto& members = listed.value().members;
    REQUIRE(members.size() == member_count);
    for (std::size_t i = 0; i < members.size(); ++i) {
      CAPTURE(i);
      CHECK(members[i].error.has_value() == (i == index));
    }
    REQUIRE(members[index].error);
    INFO(members[index].error->message());
    CHECK_THAT(members[index].error->message(), Catch::Contains(text));
    CHECK(members[index].error->offset == offset);
  }
};

}  // namespace animdex::test
