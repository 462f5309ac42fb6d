#include "game_images.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "containers/iso9660/iso9660_writer.h"
#include "containers/kh2_idx/kh2_idx_writer.h"
#include "containers/kh2_idx/kh2_names.h"
#include "sample/sample_images.h"

namespace animdex::bench {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kGameCubeDiscBytes = 1'459'978'240;

void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The KH2 name list's motion sets, in its order.
std::vector<std::string> kh2_motion_set_names() {
  std::vector<std::string> names;
  const std::string_view list = kh2_idx::kh2_name_list();
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = std::min(list.find('\n', at), list.size());
    std::string_view line = list.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("obj/") && line.ends_with(".mset")) names.emplace_back(line);
    at = end + 1;
  }
  return names;
}

int slots_for(const std::string& name, std::uint64_t seed) {
  // A small generator of its own, so a set's size does not depend on the sets before it.
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 7;
  state ^= state >> 29;
  state *= 0xBF58476D1CE4E5B9ULL;
  state ^= state >> 32;
  const double unit = static_cast<double>(state % 1'000'000) / 1'000'000.0;
  if (name.starts_with("obj/P_")) return 80 + static_cast<int>(unit * 121);
  return static_cast<int>(std::exp(unit * std::log(24.0)));
}

}  // namespace

GameImage write_gnt4_image(const fs::path& image, const fs::path& scratch, const CorpusSpec& spec) {
  CorpusSpec gnt = spec;
  gnt.motion_sets = gnt.nsbca_files = 0;
  fs::remove_all(scratch);
  GameImage result;
  result.content = write_corpus(scratch, gnt);
  result.files = result.content.files;
  result.animation_bytes = result.content.bytes;
  const auto disc = gnt4_disc_image(scratch);
  write_bytes(image, disc);
  result.compressed_bytes = disc.size();  // the FPKs and the disc's own tables: all but the hole
  fs::resize_file(image, kGameCubeDiscBytes);
  result.image_bytes = kGameCubeDiscBytes;
  return result;
}

GameImage write_kh2_dvd(const fs::path& image, int motion_sets, std::uint32_t seed, const std::string& changed_set) {
  const auto names = kh2_motion_set_names();
  if (motion_sets > static_cast<int>(names.size()))
    throw std::invalid_argument(fmt::format("KH2's name list has {} motion sets, not {}", names.size(), motion_sets));
  GameImage result;
  std::vector<kh2_idx::Kh2Entry> entries;
  for (int m = 0; m < motion_sets; ++m) {
    const std::uint64_t set_seed = static_cast<std::uint64_t>(seed) * 7'000'003ULL + static_cast<std::uint64_t>(m);
    const int slots = std::max(1, slots_for(names[m], set_seed));
    auto bytes = motion_set(names[m] == changed_set ? set_seed + 1'000'000'007ULL : set_seed, slots, result.content);
    result.animation_bytes += bytes.size();
    entries.push_back({names[m], std::move(bytes), /*compress=*/true, /*streamed=*/false});
  }
  result.files = entries.size();
  const auto pair = kh2_idx::build_kh2_idx_img(entries);
  result.compressed_bytes = pair.img.size();
  entries.clear();
  const auto disc = iso9660::build_iso9660(
      {{"KH2.IDX", pair.idx}, {"KH2.IMG", pair.img}, {"SYSTEM.CNF", std::vector<std::byte>(64, std::byte{0x20})}},
      "KH2_BENCH");
  write_bytes(image, disc);
  result.image_bytes = disc.size();
  return result;
}

}  // namespace animdex::bench
