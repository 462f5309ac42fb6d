#pragma once
// `animdex view`, and the players `report docs` and `plot` write beside their pages: a file's
// animations exported as `export --gltf` exports them (cli/file_export.h) into a player page
// (reports/player_page.h), within a page budget.
#include <filesystem>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cli/file_export.h"
#include "formats/capabilities.h"
#include "reports/player_page.h"

namespace animdex {

// A page holds at most this many bytes (scripts and base64 .glb): past it the remaining animations
// are left out, and the page lists them and says how to view them.
inline constexpr std::size_t kPlayerPageBudget = 8u << 20;

// libjs-three's scripts (three.min.js, GLTFLoader.js, OrbitControls.js) as (file name, text), read
// where Debian installs them, or the exit code when they are missing.
std::variant<std::vector<std::pair<std::string, std::string>>, int> player_scripts();

// The scripts inlined, or addressed by their file names (beside the page).
reports::PlayerScripts inlined(const std::vector<std::pair<std::string, std::string>>& scripts);
reports::PlayerScripts beside(const std::vector<std::pair<std::string, std::string>>& scripts);

// The player of `file` (a file or member) on the skeleton --model names or the link rule finds,
// its .glb within the page budget less `scripts_bytes`; or the exit code (the message is printed,
// or held by a CapturedFailure).
std::variant<reports::PlayerPage, int> make_player(const std::filesystem::path& file, const PoseRequest& chosen,
                                                   const std::filesystem::path& model, std::size_t scripts_bytes,
                                                   std::size_t skip = 0);

// make_player without messages, for the reports: the page of the animations from `skip` on (a file
// past the budget takes several pages), or in words why there is none.
reports::FilePlayer player_quietly(const std::filesystem::path& file, const std::filesystem::path& model,
                                   std::size_t scripts_bytes, std::size_t skip);

// Whether a player may be written at `path`: nothing there, or a player animdex wrote before (it
// carries reports::kPlayerGenerator); never a file of the user's.
bool player_replaceable(const std::filesystem::path& path);

// One side of `diff`'s comparison page: the animations of `file` that `keep` accepts, in half the
// page's room for .glb data (the other side takes the other half), or why there are none.
reports::FilePlayer compared_side_quietly(const std::filesystem::path& file, const std::filesystem::path& model,
                                          std::size_t scripts_bytes, const EntryFilter& keep);

}  // namespace animdex
