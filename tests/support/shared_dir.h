#pragma once
// Where the ../shared reference tree is, for tests that read its real files in place. Header-only
// and without SQLite, so container tests (which link no database) use the same lookup as the rest.
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace animdex::test {

// ../shared next to the repository (or $ANIMDEX_SHARED_DIR); nullopt when absent, so a test that
// needs the real corpus says so and skips.
inline std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("ANIMDEX_SHARED_DIR"); env && *env) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  const auto candidate = std::filesystem::path(ANIMDEX_SOURCE_DIR) / ".." / "shared";
  if (std::filesystem::is_directory(candidate / "corpus" / "real")) return std::filesystem::weakly_canonical(candidate);
  return std::nullopt;
}

}  // namespace animdex::test
