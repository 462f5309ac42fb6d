#pragma once
// `report docs`: the curves of every animation of a dump, one HTML page per character (or per file
// without one), each animation a section drawn by the curve page writer (curve_page.h). A file is
// read again from where it was indexed (the dump's root and its path, container members too) and
// drawn from its format's own evaluation; where it is gone or has changed since, its animations are
// drawn from the keys the database stores, lines joining them, and the page says so.
#include <SQLiteCpp/Database.h>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/curves.h"
#include "reports/player_page.h"

namespace animdex::reports {

// A file's curves as read again: every animation, the hash of the bytes read (compared with the
// indexed one), or why there are none, in words that do not name the path.
struct FileCurves {
  std::vector<AnimationCurves> animations;
  std::string content_hash;
  std::string problem;  // empty when `animations` holds the file's curves
};
// Reads a file or container member at `path` and evaluates its curves: the loading `plot` does,
// without messages (cli/input_loading.h). Empty: every animation is drawn from its stored keys.
using CurveLoader = std::function<FileCurves(const std::filesystem::path& path, const CurveRequest& request)>;

// A page written, relative to the docs folder, and its text.
using PageWriter = std::function<void(const std::filesystem::path& relative, const std::string& html)>;

// Makes the 3D player of the animation file at `file` on the model file at `model` (both as on
// disk: files or container members; cli/view_verb.h), holding its animations from `skip` on.
using PlayerMaker =
    std::function<FilePlayer(const std::filesystem::path& file, const std::filesystem::path& model, std::size_t skip)>;

struct CurveLink {
  std::string href;   // relative to the docs folder: "v1/curves/sas.html#a3"
  std::string label;  // "0000.mot slot 144: 0x0090 (5B)"
};

struct OwnerCurves {
  std::string owner;                // the character, or the path of a file without one
  std::optional<std::string> name;  // the character's name from the reference
  std::string page;                 // its first page, relative to the docs folder
  std::vector<CurveLink> animations;
};

struct DumpCurves {
  std::vector<OwnerCurves> owners;
  std::size_t files_read = 0, files_from_keys = 0;
  std::size_t players = 0;  // files with a 3D player page (under players/)
  std::size_t played = 0;   // animations linked to one
};

struct CurvePagesOptions {
  CurveLoader load;
  // A page holds sections up to this many bytes; an owner with more continues on `<owner>~2.html`.
  std::size_t page_budget = 900'000;
  std::size_t samples_per_line = 100;
  // Where set, each file whose animations are linked to a model (nitro_model_links,
  // kh2_model_links) gets a player page, players/<file>.html, which each of its animations' sections
  // links to; libjs-three's scripts (file name, text) are written once beside them.
  PlayerMaker player;
  std::vector<std::pair<std::string, std::string>> player_scripts;
};

// Writes the pages of one dump under `folder`/curves/ through `write` and returns what index.html
// links to.
DumpCurves write_dump_curves(SQLite::Database& db, const std::string& label, const std::string& folder,
                             const CurvePagesOptions& options, const PageWriter& write);

// index.html: per dump, each character (or file) with a link to its page and to each animation.
std::string curves_index_html(const std::vector<std::pair<std::string, DumpCurves>>& dumps);

}  // namespace animdex::reports
