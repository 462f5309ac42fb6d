#include "sample/sample_images.h"

#include <fmt/format.h>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "containers/ciso/ciso_writer.h"
#include "containers/fpk/fpk_writer.h"
#include "containers/gcm/gcm_writer.h"
#include "containers/iso9660/iso9660_writer.h"
#include "containers/kh2_idx/kh2_idx_writer.h"
#include "containers/lz/lz.h"
#include "containers/narc/narc_writer.h"
#include "containers/nds/nds_writer.h"
#include "output/output_folder.h"

namespace animdex {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

namespace {

Bytes read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Bytes bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

// Every file under `folder`, by its '/'-separated path relative to it, in order.
std::map<std::string, Bytes> files_under(const fs::path& folder) {
  std::map<std::string, Bytes> files;
  if (!fs::is_directory(folder)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) files.emplace(fs::relative(entry.path(), folder).generic_string(), read_all(entry.path()));
  return files;
}

Bytes nitro_rom(const fs::path& dump) {
  const fs::path door = dump / "nds" / "data" / "door.nsbca";
  if (!fs::exists(door)) throw std::runtime_error("the sample dump has no NSBCA (write it with --nsbca)");
  const Bytes animation = read_all(door);
  const Bytes nameless = narc::build_narc({{"", animation}, {"", lz::lz10_compress(animation)},
                                           {"", lz::lz11_compress(animation)}},
                                          false);
  const Bytes named = narc::build_narc({{"anim/door.nsbca", animation}}, true);
  return nds::build_nds({{"data/door.narc", nameless}, {"data/named.narc", named}, {"data/door.nsbca", animation}});
}

Bytes kh2_image(const fs::path& dump) {
  const fs::path kh2 = dump / "kh2";
  if (!fs::exists(kh2 / "obj" / "P_SAMPLE.mset")) throw std::runtime_error("the sample dump has no KH2 files (write it with --kh2)");
  const auto image = kh2_idx::build_kh2_idx_img({
      {"obj/P_EX100.mset", read_all(kh2 / "obj" / "P_SAMPLE.mset"), true, false},
      {"obj/M_EX010.mset", read_all(kh2 / "obj" / "M_SAMPLE.mset"), false, false},
      {"anm/fm/al/b_al020/EAL20103E.anb", read_all(kh2 / "anm" / "S_SAMPLE.anb"), true, false},
      {"animdex/not-in-the-name-list.bin", Bytes(100, std::byte{0x5A}), false, false},
  });
  return iso9660::build_iso9660({{"KH2.IDX", image.idx}, {"KH2.IMG", image.img}, {"SYSTEM.CNF", Bytes(64, std::byte{0x20})}},
                                "KH2_SAMPLE");
}

}  // namespace

std::vector<std::byte> gnt4_disc_image(const fs::path& dump) {
  std::map<std::string, std::vector<fpk::FpkInput>> archives;  // fpack/chr/<code>1000.fpk -> its .mot files
  std::vector<gcm::GcmFile> disc;
  for (auto& [path, bytes] : files_under(dump / "files")) {
    if (path.starts_with("chr/")) {
      const std::string code = path.substr(4, path.find('/', 4) - 4);
      archives[fmt::format("fpack/chr/{}1000.fpk", code)].push_back({path, std::move(bytes), true});
    } else {
      disc.push_back({path, std::move(bytes)});
    }
  }
  for (auto& [path, entries] : archives) disc.push_back({path, fpk::write_fpk(entries)});
  return gcm::build_gcm(disc, "G4NJDA", "animdex sample disc");
}

SampleImagesSummary write_sample_images(const fs::path& dump, const fs::path& out) {
  OutputFolder folder(out, "sample --images", /*force=*/true);
  auto summary = write_sample_images(dump, folder);
  folder.finish();
  return summary;
}

SampleImagesSummary write_sample_images(const fs::path& dump, OutputFolder& out) {
  SampleImagesSummary summary;
  auto emit = [&](const std::string& name, const Bytes& bytes) {
    out.write(name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    summary.files.push_back(name);
  };
  const Bytes gnt = gnt4_disc_image(dump);
  emit("gnt4.iso", gnt);
  emit("gnt4.ciso", ciso::build_ciso(gnt));
  emit("nitro.nds", nitro_rom(dump));
  emit("kh2.iso", kh2_image(dump));
  return summary;
}

}  // namespace animdex
