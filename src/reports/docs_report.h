#pragma once
// `animdex report docs`: wiki-style documentation of every dump (or one), as GitHub markdown files
// and one self-contained HTML page with a bone-usage heatmap and a reuse chart. Built on the named
// queries docs-* and the reuse report; output is deterministic (stable order, no timestamps) and
// holds no absolute path unless DocsOptions::show_roots asks for the dumps' roots. The HTML page
// summarises each KH2 motion set in one row (the slot-by-slot table is in kh2-motion-sets.md), so
// that it stays small on a whole game; past `markdown_page_limit`, kh2-motion-sets.md lists a page
// per motion set (kh2-motion-sets/SET.md) instead of holding every slot. The curves of every animation are on pages of their own,
// one per character, listed by `index.html` (docs_curves.h).
#include <SQLiteCpp/Database.h>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "reports/docs_curves.h"

namespace animdex::reports {

struct DocsOptions {
  std::filesystem::path out;        // folder to write into (created): see output/output_folder.h
  bool force = false;               // write even where `out` holds files report docs did not write
  std::optional<std::string> dump;  // default: every dump
  // A markdown page that can be split per part (KH2 slots per motion set) is split past this size.
  std::size_t markdown_page_limit = 256'000;
  // HTML heatmap: the most used bones, at most this many columns, so the page fits 1400 px.
  std::size_t heatmap_bones = 90;
  // The folders each dump was indexed from (dumps.root) are the user's absolute paths: written
  // only when asked; by default a dump is named by its label alone.
  bool show_roots = false;
  // Reads an indexed file again for its curves (cli/input_loading.h); empty: every animation's
  // curves are drawn from the keys the database stores.
  CurveLoader load_curves;
  // Makes the 3D players of the files linked to a model, and the scripts they share (docs_curves.h);
  // empty: no players.
  PlayerMaker player;
  std::vector<std::pair<std::string, std::string>> player_scripts;
};

struct DocsSummary {
  std::vector<std::filesystem::path> files;  // written, relative to `out`
  std::filesystem::path html;                // the HTML page, relative to `out`
  std::filesystem::path curves;              // index.html: every animation's curves, relative to `out`
};

DocsSummary write_docs(SQLite::Database& db, const DocsOptions& options);

// A dump label as a folder name: characters other than letters, digits, '.', '-' and '_' become '_',
// and a label that changed gets '-' and 8 hex digits of its hash, so different labels never share a folder.
std::string folder_name(const std::string& label);

}  // namespace animdex::reports
