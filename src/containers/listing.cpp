#include "containers/listing.h"

#include <fmt/format.h>

#include "containers/container_registry.h"
#include "containers/member_paths.h"

namespace animdex {

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

Result<ListedContainer> list_container(const ContainerModule& module, const std::shared_ptr<const ByteSource>& bytes,
                                       std::string_view name, const CompanionFinder& companion,
                                       const ContainerLimits& limits) {
  std::shared_ptr<const ByteSource> view = bytes;
  if (module.view) {
    auto viewed = module.view(bytes);
    if (!viewed.ok()) return viewed.error();
    view = viewed.value();
  }
  ListedContainer listed;
  listed.data = view;
  if (!module.companion_extension.empty()) {
    listed.data = companion ? companion() : nullptr;
    if (!listed.data)
      return ParseError{0, fmt::format("its data file beside it: {} with the extension {}", base_name(name),
                                       module.companion_extension),
                        "none"};
  }
  auto members = catch_parse_failure<MemberList>([&] {
    auto result = module.list(ContainerInput{*view, *listed.data, base_name(name)}, limits);
    if (!result.ok()) throw ParseFailure(result.error());
    return std::move(result).value();
  });
  if (!members.ok()) return members.error();
  if (members.value().members.size() > limits.max_members)
    return ParseError{0, fmt::format("at most {} members", limits.max_members),
                      fmt::format("{}", members.value().members.size())};
  listed.list = std::move(members).value();
  // Each kind of warning is capped where it is made (a hostile table repeats one fault a million
  // times); all of them together once more here.
  std::size_t renamed = 0;
  for (std::size_t i = 0; i < listed.list.members.size(); ++i) {
    auto& member = listed.list.members[i];
    std::string normal = normal_member_path(member.path, i);
    // A NUL escaped is the same name shown whole, not a change worth a warning.
    if (const auto shown = escape_member_name(member.path); normal != shown && renamed++ < kWarningsPerKind)
      listed.list.warnings.push_back(fmt::format("member {} is recorded as {}", shown, normal));
    member.path = std::move(normal);
    member.stored_name = escape_member_name(member.stored_name);
  }
  if (renamed > kWarningsPerKind)
    listed.list.warnings.push_back(fmt::format("{} more member paths made plain not listed", renamed - kWarningsPerKind));
  make_member_paths_unique(listed.list.members, listed.list.warnings, base_name(name), kWarningsPerKind);
  cap_warnings(listed.list.warnings, kMaxContainerWarnings);
  return listed;
}

// Member paths join the container's path in files.path: no empty, `.` or `..` components, no
// leading or trailing '/', no NUL (written `\x00`: a NUL would cut the path wherever it is shown),
// so every member has one path that `info` and `extract` can name.
std::string normal_member_path(std::string_view path, std::size_t index) {
  std::string normal;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = std::min(path.find('/', start), path.size());
    const auto component = path.substr(start, slash - start);
    start = slash + 1;
    if (component.empty() || component == ".") continue;
    normal += (normal.empty() ? "" : "/") + (component == ".." ? std::string("%2E%2E") : escape_member_name(component));
  }
  return normal.empty() ? fmt::format("#{}", index) : normal;
}

}  // namespace animdex
