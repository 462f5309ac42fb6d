#pragma once
// Listing one container, the same way for the indexer and for the CLI (`ls`, `extract`, member
// paths): its logical view (CISO), its companion data (KH2.IMG), its member table, its caps.
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "containers/container.h"

namespace animdex {

struct ListedContainer {
  std::shared_ptr<const ByteSource> data;  // where the members' bytes are (offsets are into it)
  MemberList list;
};

// Warnings one listing keeps: of each kind (FST repeats, renamed paths, ...) and in all.
inline constexpr std::size_t kWarningsPerKind = 16;
inline constexpr std::size_t kMaxContainerWarnings = 100;

// Finds the companion of a table-only container (ContainerModule::companion_extension); nullptr
// when there is none.
using CompanionFinder = std::function<std::shared_ptr<const ByteSource>()>;

// The listing every reader of a container shares (indexer and verbs): member paths made plain
// (normal_member_path) and then unique and prefix-free (make_member_paths_unique), names with a NUL
// escaped, warnings capped.
Result<ListedContainer> list_container(const ContainerModule& module, const std::shared_ptr<const ByteSource>& bytes,
                                       std::string_view name, const CompanionFinder& companion,
                                       const ContainerLimits& limits);

// `path` without empty, `.` components and leading or trailing '/', with `..` written `%2E%2E` and
// a NUL `\x00`; `#index` when nothing is left.
std::string normal_member_path(std::string_view path, std::size_t index);

// The last component of a '/'-separated path.
std::string_view base_name(std::string_view path);

}  // namespace animdex
