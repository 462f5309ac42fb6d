// Fuzzes the walk through nested containers as `index` and `ls` make it: any bytes detected as a
// container are listed, each member opened (decompressed within the caps) and walked again if it
// is a container, all charged to one ContainerBudget. Whatever nests in what, the budget's members,
// decompressed bytes and held containers never pass their caps, and every refusal is an error
// with a reason, never a crash or an unbounded walk.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "containers/container_budget.h"
#include "containers/container_registry.h"
#include "containers/listing.h"
#include "containers/member_bytes.h"
#include "detect/identify.h"

using namespace animdex;

namespace {

// Small caps, so a few kilobytes of input can reach every one of them.
ContainerLimits fuzz_limits() {
  ContainerLimits limits;
  limits.max_depth = 4;
  limits.max_member_size = 1 << 20;
  limits.max_total_decompressed = 4 << 20;
  limits.max_members = 2'000;
  limits.max_held_decompressed = 2 << 20;
  limits.max_table_size = 1 << 20;
  return limits;
}

void check(bool holds) {
  if (!holds) __builtin_trap();
}

void walk(const std::shared_ptr<const ByteSource>& bytes, std::string_view name, std::uint32_t depth,
          ContainerBudget& budget) {
  if (depth > budget.limits().max_depth) return;
  const auto head = read_head(*bytes, kContainerDetectBytes);
  const auto* module = detect_container(head, bytes->size(), name);
  if (!module) return;
  const auto listed = list_container(*module, bytes, name, [] { return nullptr; }, budget.limits());
  if (!listed.ok()) {
    check(!listed.error().expected.empty());
    return;
  }
  const auto& members = listed.value().list.members;
  if (const auto refused = budget.charge_members(members.size(), name)) {
    check(!refused->expected.empty());
    return;
  }
  check(budget.members() <= budget.max_members());
  for (const auto& member : members) {
    if (member.error) continue;
    const auto opened = open_member(listed.value().data, member, budget.limits(), budget.decompressed(), known_content);
    check(budget.decompressed().bytes.load() <= budget.max_decompressed());
    if (!opened.ok()) {
      check(!opened.error().expected.empty());
      continue;
    }
    const bool compressed = opened.value().compression != nullptr;
    const std::uint64_t held = compressed ? opened.value().size : 0;
    if (compressed && budget.hold(held)) continue;  // over the held cap: refused, not walked
    check(budget.held() <= budget.limits().max_held_decompressed);
    walk(opened.value().bytes, member.path, depth + 1, budget);
    if (compressed) budget.release(held);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  ContainerBudget budget(fuzz_limits(), size);
  walk(std::make_shared<MemorySource>(bytes), "fuzz.bin", 0, budget);
  check(budget.held() == 0);
  return 0;
}
