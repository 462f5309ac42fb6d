#pragma once
// The named fixtures of tests/sql/*.test (a line `fixture NAME` at the top of a file): databases
// built by the project's own writers and indexer, as the C++ tests built them before.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace animdex::sqltest {

// Every fixture's name, for the runner's message on an unknown one.
std::vector<std::string> fixture_names();

// Builds fixture `name` as the database `database`, writing its trees under `work`. Returns a reason
// to skip (the real corpus under ../shared is absent) or nullopt when built. Throws on an unknown name.
std::optional<std::string> build_fixture(const std::string& name, const std::filesystem::path& work,
                                         const std::filesystem::path& database);

}  // namespace animdex::sqltest
