#pragma once
// Data files compiled into the binary (schema/*.sql, schema/reference/*.tsv, queries/*.sql),
// keyed by their path relative to the repository root.
#include <optional>
#include <span>
#include <string_view>

namespace animdex {

struct EmbeddedFile {
  std::string_view path;
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();

std::optional<std::string_view> embedded_file(std::string_view path);

}  // namespace animdex
