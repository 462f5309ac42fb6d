#include <CLI/CLI.hpp>
#include <charconv>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <fmt/ostream.h>
#include <ostream>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/index_summary.h"
#include "cli/verb.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "output/output_file.h"
#include "output/output_folder.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"

namespace animdex {

namespace {

namespace fs = std::filesystem;

void show(std::ostream& out, SQLite::Database& db, OutputFormat format, const std::string& title,
          const std::string& command, const std::string& sql, const Bindings& bindings = {}) {
  out << "\n== " << title << "\n$ " << command << "\n";
  write_table(out, run_read_only_sql(db, sql, bindings), format);
}

// A named query as `animdex query` runs it: the user's values with the query's defaults.
void show_named(std::ostream& out, SQLite::Database& db, OutputFormat format, const std::string& title,
                const std::string& command, const char* name, const Bindings& bindings = {}) {
  const NamedQuery& query = *find_named_query(name);
  out << "\n== " << title << "\n$ " << command << "\n";
  write_table(out, run_read_only_query(db, query.sql, bind_parameters(query, bindings)), format);
}

// --characters: 1 to the length of the sample's character list; the message says the bounds.
const CLI::Validator& character_count() {
  static const CLI::Validator validator(
      [](const std::string& text) -> std::string {
        long long count = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
        const bool whole = end == text.data() + text.size();
        if (error == std::errc::result_out_of_range && whole)
          count = text.starts_with('-') ? 0 : kSampleCharacterLimit + 1;
        else if (error != std::errc() || !whole)
          return fmt::format("expected a whole number of characters (1-{}), got {}", kSampleCharacterLimit, text);
        if (count > kSampleCharacterLimit)
          return fmt::format("at most {} characters (the GNT4 character list the sample draws on), got {}",
                             kSampleCharacterLimit, text);
        if (count < 1) return fmt::format("at least 1 character, got {}", text);
        return {};
      },
      fmt::format("1-{}", kSampleCharacterLimit));
  return validator;
}

constexpr const char* kDemoMarker = ".animdex-demo";

// The most characters and every kind: a superset of any demo's files.
SampleDumpOptions every_sample_file() {
  SampleDumpOptions options;
  options.character_count = kSampleCharacterLimit;
  options.include_kh2 = options.include_nsbca = true;
  return options;
}

// A folder the demo may clear: missing, empty, marked by an earlier demo, or one an older demo
// wrote before the marker existed: only dump/ and the database, and dump/ only sample files (a
// dump/ of the user's own is never taken for it).
bool is_demo_folder(const fs::path& directory) {
  std::error_code error;
  if (!fs::exists(directory, error)) return true;
  if (!fs::is_directory(directory, error)) return false;
  if (fs::exists(directory / kDemoMarker, error) || fs::is_empty(directory, error)) return true;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name != "dump" && name != "images" && !name.starts_with("animdex-demo.db")) return false;
  }
  return !error && is_sample_folder(directory / "dump", every_sample_file());
}

// A demo folder written before folders had manifests: its dump/ holding only the sample's file
// names and images/ only the images' are cleared as that demo did; anything else is left for
// OutputFolder to refuse.
void clear_folder_of_an_older_demo(const fs::path& dump, const fs::path& images) {
  std::error_code error;
  if (fs::is_directory(dump, error) && !fs::exists(dump / OutputFolder::kManifestName, error) &&
      is_sample_folder(dump, every_sample_file()))
    fs::remove_all(dump);
  if (!fs::is_directory(images, error) || fs::exists(images / OutputFolder::kManifestName, error)) return;
  for (const auto& entry : fs::directory_iterator(images, error)) {
    const auto name = entry.path().filename().string();
    if (!entry.is_regular_file(error) || (name != "gnt4.iso" && name != "gnt4.ciso" && name != "nitro.nds" && name != "kh2.iso"))
      return;
  }
  fs::remove_all(images);
}

}  // namespace

int run_demo(const DemoOptions& options, std::ostream& out) {
  try {
    const fs::path dump = options.directory / "dump";
    const fs::path database = options.directory / "animdex-demo.db";
    if (!options.force && !is_demo_folder(options.directory)) {
      return fail(kExitUsage, fmt::format("{} holds files the demo did not write; the demo replaces its folder's "
                                          "dump/ and animdex-demo.db, so give an empty or new folder (--dir), or "
                                          "--force to replace them",
                                          options.directory.string()));
    }
    // dump/ and images/ are written like `sample DIR --images DIR2`: their manifests say which
    // files are the demo's, so a file of the user's there is refused, never deleted.
    const fs::path images = options.directory / "images";
    clear_folder_of_an_older_demo(dump, images);
    OutputFolder dump_out(dump, "sample", options.force);
    OutputFolder images_out(images, "sample --images", options.force);
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(database.string() + suffix);
    write_file_checked(options.directory / kDemoMarker, "written by animdex demo; it may replace this folder's dump\n");

    SampleDumpOptions sample;
    sample.character_count = options.character_count;
    sample.include_kh2 = true;
    sample.include_nsbca = true;
    const auto written = write_sample_dump(dump_out, sample);
    dump_out.finish();
    out << fmt::format("Wrote a sample dump (GNT4-like, plus KH2 motion sets and a DS door, NSBCA with its NSBMD model): {} files for {} characters under {}\n", written.files.size(),
                       written.characters.size(), dump.string());

    IndexOptions index;
    index.roots = {dump};
    index.database = database;
    index.label = "sample";
    index.threads = options.threads;
    const auto summary = run_index(index);
    out << fmt::format("$ animdex index {} --db {} --label sample\n", dump.string(), database.string());
    out << index_summary_text(index, summary);

    auto db = open_read_only(database);
    auto command = [&](const char* query, const char* parameters = "") {
      return fmt::format("animdex query {} --db {}{}", query, database.string(), parameters);
    };
    show_named(out, db, options.format, "Files by format and status", command("formats"), "formats",
               {{"dump", "NULL"}});
    show_named(out, db, options.format, "Which characters animate bone 118 (0x76)?",
         command("bone-users", " -p bone 118"), "bone-users",
         {{"bone", "118"}, {"dump", "NULL"}});
    show_named(out, db, options.format, "Characters", command("characters"), "characters",
         {{"dump", "NULL"}});
    show_named(out, db, options.format, "Animation IDs, purposes and who has them",
         command("purposes"), "purposes", {{"dump", "NULL"}});
    show(out, db, options.format, "Animations shared byte-for-byte by several characters",
         "animdex sql \"SELECT ... GROUP BY content_hash HAVING COUNT(DISTINCT character) > 1\" --db " +
             database.string(),
         "SELECT printf('0x%04X', motion_id) AS motion_hex, name, COUNT(DISTINCT character) AS characters, "
         "content_hash FROM animation_overview WHERE path LIKE '%/0000.mot' GROUP BY content_hash "
         "HAVING COUNT(DISTINCT character) > 1 ORDER BY motion_id, content_hash");
    show_named(out, db, options.format, "KH2: dummy slots of the motion sets and the slot the engine plays instead",
         command("dummy-slots", " -p file P_SAMPLE"), "dummy-slots",
         {{"file", "P_SAMPLE"}, {"dump", "NULL"}, {"numbering", "code"}});
    show_named(out, db, options.format, "NSBCA: where each node's T, R and S come from, and how many samples each stores",
         command("nsbca-nodes"), "nsbca-nodes", {{"file", "NULL"}, {"animation", "NULL"}, {"dump", "NULL"}});
    show_named(out, db, options.format, "Files that failed to parse (the sample includes two on purpose)",
         command("errors"), "errors", {{"dump", "NULL"}});

    // Disc images and archives built from the same dump, indexed in place as a second dump.
    const auto built = write_sample_images(dump, images_out);
    images_out.finish();
    IndexOptions image_index = index;
    image_index.roots = {images};
    image_index.label = "images";
    const auto image_summary = run_index(image_index);
    out << fmt::format("$ animdex sample {} --kh2 --nsbca --images {}   # {}\n", dump.string(), images.string(),
                       fmt::join(built.files, ", "));
    out << fmt::format("$ animdex index {} --db {} --label images\n", images.string(), database.string());
    out << index_summary_text(image_index, image_summary);
    {
      auto images_db = open_read_only(database);
      show_named(out, images_db, options.format, "Disc images and archives built from the dump, indexed in place: their members",
           command("containers", " -p dump images"), "containers", {{"dump", "images"}});
      show_named(out, images_db, options.format, "The same question asked of the images: which characters animate bone 118?",
           command("bone-users", " -p bone 118 -p dump images"), "bone-users",
           {{"bone", "118"}, {"dump", "images"}});
    }
    out << fmt::format("\nThe database stays at {}; try `animdex queries` and `animdex sql ... --db {}`.\n",
                       database.string(), database.string());
    out << fmt::format("Reports: `animdex report reuse --db {0}`, `animdex report docs --db {0} --out docs` "
                       "(markdown + HTML with charts).\n",
                       database.string());
    return kExitOk;
  } catch (const ForeignFileError& error) {
    return fail(kExitUsage, error);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

}  // namespace animdex

namespace animdex {

namespace {

struct SampleOptions {
  std::string directory;
  std::string images;  // --images: also build disc images and archives from the dump here
  SampleDumpOptions sample;
  bool no_problem_files = false;
  bool force = false;
};

int run_sample(SampleOptions& options) {
  options.sample.include_problem_files = !options.no_problem_files;
  if (!options.images.empty()) options.sample.include_kh2 = options.sample.include_nsbca = true;
  std::error_code same;
  const auto normal = [](const std::string& folder) { return (fs::absolute(folder) / "").lexically_normal(); };
  if (!options.images.empty() && (normal(options.images) == normal(options.directory) ||
                                  fs::equivalent(options.images, options.directory, same)))
    return fail(kExitUsage, "--images needs a folder of its own (a subfolder of DIR will do), not DIR itself");
  try {
    // Both folders are checked before either is written: a refused --images leaves no dump behind.
    OutputFolder dump(options.directory, "sample", options.force);
    std::optional<OutputFolder> images;
    if (!options.images.empty()) images.emplace(options.images, "sample --images", options.force);
    const auto summary = write_sample_dump(dump, options.sample);
    dump.finish();
    report_written(options.directory,
                   fmt::format("{} files for {} characters", summary.files.size(), summary.characters.size()));
    if (images) {
      const auto written = write_sample_images(options.directory, *images);
      images->finish();
      report_written(options.images,
                     fmt::format("{} images and archives: {}", written.files.size(), fmt::join(written.files, ", ")));
    }
    return kExitOk;
  } catch (const ForeignFileError& error) {
    return fail(kExitUsage, error);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

}  // namespace

std::vector<Verb> add_sample_verbs(CLI::App& app) {
  auto sample_options = std::make_shared<SampleOptions>();
  auto* sample = app.add_subcommand(
      "sample", "Write the built-in sample dump (GNT4-like; KH2 and NSBCA files on request) to a folder");
  sample->add_option("directory", sample_options->directory, "Where to write it: a new or empty folder, or one sample wrote before (its .animdex-manifest "
                     "lists the files)")->required();
  sample->add_option("-c,--characters", sample_options->sample.character_count,
                      fmt::format("How many characters (1-{})", kSampleCharacterLimit))
      ->check(character_count())->capture_default_str();
  sample->add_flag("--no-problem-files", sample_options->no_problem_files, "Leave out the broken and non-GNT files");
  sample->add_flag("--kh2", sample_options->sample.include_kh2,
                   "Add KH2 files: a Player motion set with dummies, a Default set with a nested set, an ANB");
  sample->add_flag("--nsbca", sample_options->sample.include_nsbca,
                   "Add an NSBCA file: two animations (steps 1 and 2) with identity, animated and bind-pose nodes");
  sample->add_option("--images", sample_options->images,
                     "Also build disc images and archives from the dump in this folder (implies --kh2 --nsbca): "
                     "gnt4.iso, gnt4.ciso, nitro.nds, kh2.iso; like DIR, new, empty or written by sample before");
  sample->add_flag("--force", sample_options->force,
                   "Write into a folder that holds files sample did not write (files of the same name are replaced; "
                   "the others are left alone)");
  add_examples(*sample, {"animdex sample /tmp/s", "animdex sample /tmp/s2 --characters 3 --kh2 --nsbca",
                         "animdex sample /tmp/s3 --images /tmp/s3-images"});

  struct DemoVerbOptions {
    DemoOptions demo;
    FormatOption format;
  };
  auto demo_options = std::make_shared<DemoVerbOptions>();
  demo_options->demo.directory = std::filesystem::temp_directory_path() / "animdex-demo";
  auto* demo = app.add_subcommand("demo", "Write the sample dump, index it and print answers to example queries");
  demo->add_option("-d,--dir", demo_options->demo.directory, "Working folder for the sample dump and database")
      ->capture_default_str();
  demo->add_option("-c,--characters", demo_options->demo.character_count,
                      fmt::format("How many characters (1-{})", kSampleCharacterLimit))
      ->check(character_count())->capture_default_str();
  demo->add_option("-j,--threads", demo_options->demo.threads, "Parser threads (0: one per core)")
      ->check(non_negative_number());
  demo->add_flag("--force", demo_options->demo.force,
                 "Use a --dir that holds files the demo did not write (its dump/ and animdex-demo.db are replaced)");
  add_format_option(*demo, demo_options->format, {"table", "csv", "json", "markdown"}, /*header_option=*/false);
  add_examples(*demo, {"animdex demo", "animdex demo --dir /tmp/d --characters 4 --format markdown"});

  return {{sample, [sample_options](std::ostream&) { return run_sample(*sample_options); }},
          {demo, [demo_options](std::ostream& out) {
             demo_options->demo.format = demo_options->format.value();
             return run_demo(demo_options->demo, out);
           }}};
}

}  // namespace animdex
